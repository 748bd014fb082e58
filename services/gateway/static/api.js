// The gateway's HTTP API: jobs, corrections, and problem+json errors.

export const FINAL_STATES = new Set(["solved", "needs_review", "failed"]);

export class ApiError extends Error {
  constructor(status, title, detail) {
    super(detail ? `${title}: ${detail}` : title);
    this.status = status;
    this.title = title;
    this.detail = detail;
  }
}

async function request(url, options = {}) {
  let response;
  try {
    response = await fetch(url, options);
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new ApiError(0, "The server cannot be reached", "check the connection and try again");
  }
  const type = response.headers.get("content-type") || "";
  const body = type.includes("json") ? await response.json() : null;
  if (!response.ok) {
    throw new ApiError(response.status, body?.title || response.statusText || "Error",
                       body?.detail || "");
  }
  return body;
}

const jobUrl = (id) => `/v1/jobs/${encodeURIComponent(id)}`;

export function createImageJob(file, kind) {
  const form = new FormData();
  form.append("image", file);
  form.append("kind", kind);
  return request("/v1/jobs", { method: "POST", body: form });
}

export function createPuzzleJob(puzzle, kind) {
  const isText = typeof puzzle === "string";
  const query = isText ? `?kind=${encodeURIComponent(kind)}` : "";
  return request(`/v1/jobs${query}`, {
    method: "POST",
    headers: { "content-type": isText ? "text/plain" : "application/json" },
    body: isText ? puzzle : JSON.stringify(puzzle),
  });
}

export const getJob = (id, signal) => request(jobUrl(id), { signal });

// POST adds to the corrections in force; PUT replaces them all (an undo sends the ones
// to keep, {} for none).
function sendCorrections(method, id, corrections) {
  return request(`${jobUrl(id)}/corrections`, {
    method,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(corrections || {}),
  });
}
export const postCorrections = (id, corrections) => sendCorrections("POST", id, corrections);
export const putCorrections = (id, corrections) => sendCorrections("PUT", id, corrections);

// Sized for screens (the PNG at overlay.png is the upload's full size).
export const resetCorrections = (id) => request(`${jobUrl(id)}/reset`, { method: "POST" });

// An ended job, its upload and its drawn pictures (the server refuses a running job).
export const deleteJob = (id) => request(jobUrl(id), { method: "DELETE" });

export const overlayUrl = (job, type = "jpg") =>
  `${jobUrl(job.id)}/overlay.${type}?revision=${job.revision}`;
export const imageUrl = (job) => `${jobUrl(job.id)}/image`;

const sleep = (ms, signal) => new Promise((resolve, reject) => {
  const timer = setTimeout(resolve, ms);
  signal?.addEventListener("abort", () => {
    clearTimeout(timer);
    reject(new DOMException("Aborted", "AbortError"));
  }, { once: true });
});

// Poll a job until it reaches a final state, reporting each change of state.
// Polls quickly at first (most jobs take well under a second), then backs off.
export async function waitForJob(id, onChange, signal) {
  let delay = 150;
  let last = "";
  for (;;) {
    const job = await getJob(id, signal);
    const seen = `${job.revision}:${job.status}`;
    if (seen !== last) {
      last = seen;
      onChange(job);
    }
    if (FINAL_STATES.has(job.status)) return job;
    await sleep(delay, signal);
    delay = Math.min(1000, delay * 1.4);
  }
}
