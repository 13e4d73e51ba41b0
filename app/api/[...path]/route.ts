import { apiHeaders, errorBody, requestIdOf } from "@/lib/http/route";

// Every unknown /api/* path, for every method, answers a JSON 404 (never Next's HTML page).
const notFound = async (req: Request) =>
  Response.json(errorBody("NOT_FOUND", `No API route matches ${req.method} ${new URL(req.url).pathname}.`), {
    status: 404,
    headers: apiHeaders(req, requestIdOf(req)),
  });

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE, notFound as OPTIONS, notFound as HEAD };
