import { startGooglePlayStandIn } from "../../../dev/standins/google-play";
import type { Fixture } from "../test-server";

// Google Play for the server under test: the stand-in of dev/standins/google-play.ts (the Play Developer API,
// the service account's token endpoint, Google's OIDC certificates). Tests register purchases through its control
// endpoint, read back their acknowledge and consume counts, and mint Pub/Sub OIDC tokens for the push audience.
export default async function googlePlayStandIn(): Promise<Fixture> {
  const standIn = await startGooglePlayStandIn({ packageName: "com.example.fans" });
  return {
    env: {
      GOOGLE_PLAY_PACKAGE_NAME: standIn.packageName,
      GOOGLE_PLAY_SERVICE_ACCOUNT: standIn.serviceAccount,
      GOOGLE_PLAY_API_URL: standIn.url,
      GOOGLE_PLAY_PUSH_AUDIENCE: standIn.pushAudience,
      GOOGLE_PLAY_PUSH_SERVICE_ACCOUNT: standIn.pushServiceAccount,
      GOOGLE_PLAY_PUSH_CERTS_URL: `${standIn.url}/oauth2/v1/certs`,
    },
    provided: { url: standIn.url, packageName: standIn.packageName, audience: standIn.pushAudience, pushServiceAccount: standIn.pushServiceAccount },
    teardown: () => standIn.close(),
  };
}
