// OpenAPI fragments for the redirecting routes.
export const redirectResponse = (description: string) => ({
  "302": {
    description,
    headers: { Location: { schema: { type: "string" }, description: "Where the client goes next." } },
  },
});
