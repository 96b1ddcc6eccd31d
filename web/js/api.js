// @ts-check
// JSON over HTTP with the server's error shape: {"error": {"code", "message"}}.
export class ApiError extends Error {
  /**
   * @param {string} code the server's error code (`network` when there was no answer)
   * @param {string} message
   * @param {number} status the HTTP status (0: no answer)
   */
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

/**
 * The server's answer, parsed (its shape is the endpoint's, docs/protocol.md); an `ApiError`
 * when it refuses or cannot be reached.
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body] sent as JSON
 * @returns {Promise<any>}
 */
export async function api(method, path, body) {
  let res;
  try {
    res = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError('network', String(e), 0);
  }
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    const err = data && data.error;
    throw new ApiError(err ? err.code : 'internal', err ? err.message : text, res.status);
  }
  return data;
}
