import { z } from "zod";
import { isoDateTime } from "../../kernel/schemas";

// A fan's shipping address for physical rewards. Free text is trimmed; country is ISO 3166-1 alpha-2 (upper-cased).

const text = (max: number) => z.string().trim().min(1).max(max);
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((v) => (v ? v : null));

export const shippingAddressBody = z.strictObject({
  name: text(120).meta({ description: "Recipient's full name." }),
  line1: text(200).meta({ description: "Street address, first line." }),
  line2: optionalText(200).meta({ description: "Optional second line." }),
  city: text(120),
  region: optionalText(120).meta({ description: "State, province or county, where the country uses one." }),
  postalCode: z
    .string()
    .trim()
    .min(2)
    .max(16)
    .regex(/^[A-Za-z0-9][A-Za-z0-9 -]*$/, "Letters, digits, spaces and hyphens")
    .meta({ description: "Postal code: 2-16 letters, digits, spaces and hyphens." }),
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/, "An ISO 3166-1 alpha-2 country code, e.g. GB")
    .transform((c) => c.toUpperCase())
    .meta({ description: "ISO 3166-1 alpha-2 country code (any case; stored upper-case).", examples: ["GB"] }),
  phone: z
    .string()
    .trim()
    .regex(/^\+?[0-9 ()-]{6,24}$/, "A phone number: digits, spaces, ( ) - and an optional leading +")
    .nullish()
    .transform((v) => v ?? null)
    .meta({ description: "Optional phone number for the carrier." }),
});

export const shippingAddress = z
  .object({
    name: z.string(),
    line1: z.string(),
    line2: z.string().nullable(),
    city: z.string(),
    region: z.string().nullable(),
    postalCode: z.string(),
    country: z.string().meta({ description: "ISO 3166-1 alpha-2, upper-case." }),
    phone: z.string().nullable(),
    updatedAt: isoDateTime,
  })
  .meta({ id: "ShippingAddress" });

export const shippingAddressOrNull = shippingAddress.nullable().meta({ description: "The caller's shipping address, or null when none is stored." });

export type ShippingAddressInput = z.infer<typeof shippingAddressBody>;
