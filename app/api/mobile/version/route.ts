import { env } from "@/lib/env";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { versionInfo, versionQuery } from "@/lib/features/mobile/schemas";

const parts = (v: string) => v.split(".").map(Number);
const older = (a: string, b: string) => {
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) < (y[i] ?? 0);
  return false;
};

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Minimum and latest app versions",
      description:
        "From configuration. With `currentVersion`, also says whether that version must update (`updateRequired`, below the minimum) or may (`updateAvailable`).",
      tags: ["Auth"],
      auth: "public",
      query: versionQuery,
      database: false,
      response: versionInfo,
    },
    async ({ query }) => {
      const e = env();
      const updateUrl = query.platform === "ios" ? e.MOBILE_UPDATE_URL_IOS : query.platform === "android" ? e.MOBILE_UPDATE_URL_ANDROID : undefined;
      return {
        minimumVersion: e.MOBILE_MIN_VERSION,
        latestVersion: e.MOBILE_LATEST_VERSION,
        updateUrl: updateUrl ?? null,
        ...(query.currentVersion
          ? {
              updateRequired: older(query.currentVersion, e.MOBILE_MIN_VERSION),
              updateAvailable: older(query.currentVersion, e.MOBILE_LATEST_VERSION),
            }
          : {}),
      };
    },
  ),
});
