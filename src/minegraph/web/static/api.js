// The API client: JSON in, JSON out (docs/web.md); a refusal becomes an Error carrying the
// server's one-line message.

export async function api(method, path, body, signal) {
  const options = { method, headers: {} };
  if (signal) options.signal = signal;
  if (body !== undefined) {
    options.headers["content-type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (err) {
    if (err.name === "AbortError") throw err;
    throw new Error(`cannot reach the server: ${err.message}`);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    throw new Error(`the server answered ${response.status} without JSON`);
  }
  if (!response.ok) {
    throw new Error(data && data.error ? data.error : `the server answered ${response.status}`);
  }
  return data;
}

// A replay file sent as it is (POST /api/review): the server's answer, or an Error with its
// message. A file that never reached the server, or an answer that is not JSON, says "no
// review".
export async function sendReplay(file) {
  let response, data = null;
  try {
    response = await fetch(`/api/review?name=${encodeURIComponent(file.name)}`, {
      method: "POST", headers: { "content-type": "application/octet-stream" }, body: file });
    data = await response.json();
  } catch (err) {
    throw new Error(`no review: ${err.message}`);
  }
  if (!response.ok) {
    throw new Error(data && data.error ? data.error : `the server answered ${response.status}`);
  }
  return data;
}
