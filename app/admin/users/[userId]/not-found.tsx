import { Notice } from "../../_lib/ui";

// A fan id that is no fan's (not a uuid, or no such user): 404 with a way on.
export default function FanNotFound() {
  return (
    <>
      <h1>Fan not found</h1>
      <Notice kind="error">No fan has this id. Fan ids are uuids; find a fan by handle, e-mail or name with the search box.</Notice>
      <p>
        <a href="/admin/users">Back to users</a>
      </p>
    </>
  );
}
