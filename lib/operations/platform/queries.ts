import { pool } from "../../db/client";

// Platform reads: the dependency probes readiness runs. They only ask each dependency to answer; no data is touched.

/** `SELECT 1` on the app's own pool (the connections requests use). */
export const pingDatabase = () => pool.query("SELECT 1");
