"""Limits a client cannot get around, and answers that never amplify. Real gateway
processes over HTTP, real Redis."""

from __future__ import annotations

import asyncio
import io
import os
import signal
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from PIL import Image

from gridsight.stack import GATEWAY_PROTOCOL, ROOT, Stack
from tests.conftest import gateway_with

MB = 1024 * 1024


class Chunks:
    """A body sent chunked (no Content-Length), counting what the server took."""

    def __init__(self, first: bytes, filler: bytes, total: int, chunk: int = 256 * 1024):
        self.first, self.filler, self.total, self.chunk, self.sent = first, filler, total, chunk, 0

    def __iter__(self):
        yield self.first
        self.sent = len(self.first)
        while self.sent < self.total:
            yield self.filler * (self.chunk // len(self.filler))
            self.sent += self.chunk


def post_chunked(client: httpx.Client, body: Chunks, content_type: str) -> int | None:
    """The answer's status, or None when the server closed the connection mid-body."""
    try:
        return client.post("/v1/jobs", content=iter(body),
                           headers={"content-type": content_type}).status_code
    except httpx.TransportError:
        return None


def test_a_chunked_json_body_is_cut_off_at_the_limit(client):
    body = Chunks(b'{"kind": "sudoku", "grid": "', b"1", total=40 * MB)
    status = post_chunked(client, body, "application/json")
    assert status in (413, None)
    assert body.sent < 8 * MB, f"the gateway read {body.sent} bytes of a chunked body"


def test_a_chunked_multipart_upload_is_cut_off_at_the_limit(client):
    head = (b'--b0undary\r\nContent-Disposition: form-data; name="image"; '
            b'filename="x.png"\r\nContent-Type: image/png\r\n\r\n')
    body = Chunks(head, b"\x00", total=60 * MB)
    status = post_chunked(client, body, "multipart/form-data; boundary=b0undary")
    assert status in (413, None)
    assert body.sent < 20 * MB, f"the gateway read {body.sent} bytes of a chunked upload"


@pytest.mark.parametrize("method", ["POST", "PUT"])
def test_a_large_body_on_another_route_is_refused_before_parsing(client, method):
    fixes = {"cells": [{"row": 0, "col": 0, "value": 1}] * 200_000}  # about 6 MB
    response = client.request(method, "/v1/jobs/AAAAAAAAAAAAAAAAAAAAAAAA/corrections",
                              json=fixes)
    assert response.status_code == 413
    assert len(response.content) < 1000


@pytest.mark.parametrize("method", ["POST", "PUT"])
def test_validation_errors_do_not_amplify(client, method):
    fixes = {"cells": [{"row": "x", "col": "y", "value": "z"}] * 3000}  # 150 kB, 9000 faults
    response = client.request(method, "/v1/jobs/AAAAAAAAAAAAAAAAAAAAAAAA/corrections",
                              json=fixes)
    assert 400 <= response.status_code < 500
    assert len(response.content) < 5000, len(response.content)


def test_a_long_kind_is_not_echoed(client):
    response = client.post("/v1/jobs", json={"kind": "k" * 100_000, "givens": []})
    assert response.status_code == 422
    assert len(response.content) < 1000 and "k" * 100 not in response.text


@pytest.mark.parametrize("body", [
    "[" * 100_000 + "]" * 100_000,
    '{"kind": "sudoku", "size": ' + "7" * 5000 + "}",
], ids=["deeply-nested", "5000-digit-integer"])
def test_hostile_json_is_422_not_500(client, body):
    response = client.post("/v1/jobs", content=body,
                           headers={"content-type": "application/json"})
    assert response.status_code == 422, response.text
    assert response.headers["content-type"].startswith("application/problem+json")


def test_a_picture_a_million_pixels_long_is_refused(client):
    buffer = io.BytesIO()
    Image.new("1", (1_000_000, 40), 1).save(buffer, "PNG")
    response = client.post("/v1/jobs", files={"image": ("strip.png", buffer.getvalue(),
                                                        "image/png")})
    assert response.status_code == 422, response.text


def test_300_concurrent_long_polls_and_200_uploads_get_no_503(client):
    text = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    job_ids = [client.post("/v1/jobs", content=text, headers={"content-type": "text/plain"}
                           ).json()["id"] for _ in range(3)]
    base = str(client.base_url)

    async def burst() -> list[int]:
        limits = httpx.Limits(max_connections=600, max_keepalive_connections=0)
        async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
            polls = [http.get(f"/v1/jobs/{job_ids[i % 3]}", params={"wait": 2})
                     for i in range(300)]
            uploads = [http.post("/v1/jobs", content=text,
                                 headers={"content-type": "text/plain"}) for _ in range(200)]
            return await asyncio.gather(*polls, *uploads, return_exceptions=True)

    # A loop of its own in a thread: the browser tests may leave one running here.
    with ThreadPoolExecutor(1) as thread:
        answers = thread.submit(asyncio.run, burst()).result()
    statuses = [a.status_code if isinstance(a, httpx.Response) else 599 for a in answers]
    faults = {a.text[:200] if isinstance(a, httpx.Response) else repr(a)[:200]
              for a in answers if not isinstance(a, httpx.Response) or a.status_code >= 500}
    assert statuses[:300] == [200] * 300, (sorted(set(statuses[:300])), faults)
    assert statuses[300:] == [202] * 200, (sorted(set(statuses[300:])), faults)


def test_a_non_ascii_api_key_is_401_not_500(redis_url):
    with gateway_with(redis_url, GRIDSIGHT_API_KEY="s3cret") as base:
        response = httpx.get(f"{base}/v1/jobs/AAAAAAAAAAAAAAAAAAAAAAAA",
                             headers={"X-API-Key": "clé".encode("latin-1")})
    assert response.status_code == 401


@pytest.fixture()
def paused_redis_gateway(monkeypatch):
    """A gateway over a Redis of its own, which the test pauses (SIGSTOP)."""
    monkeypatch.delenv("REDIS_URL", raising=False)
    with Stack() as stack:
        base = stack.start_service(prefer="redis-server", workers=False)
        monkeypatch.setenv("REDIS_URL", stack.redis_url)
        redis_process = stack.processes[0]
        os.kill(redis_process.pid, signal.SIGSTOP)
        try:
            yield base
        finally:
            os.kill(redis_process.pid, signal.SIGCONT)


def test_the_gateway_answers_while_redis_is_paused(paused_redis_gateway):
    base = paused_redis_gateway
    with httpx.Client(base_url=base, timeout=10) as http:
        for path, status in (("/healthz", 503), ("/", 200), ("/openapi.json", 200),
                             ("/healthz", 503)):
            started = time.monotonic()
            response = http.get(path)
            assert response.status_code == status, (path, response.text[:200])
            assert time.monotonic() - started < 1.0, path
        # A route that needs Redis says so (503) within seconds instead of hanging.
        started = time.monotonic()
        assert http.get("/v1/jobs/AAAAAAAAAAAAAAAAAAAAAAAA").status_code == 503
        assert time.monotonic() - started < 8.0


@pytest.fixture(scope="module")
def impatient(redis_url):
    """A gateway (run as `serve` runs it) that waits 1 s for a stalled body, 2 s for
    headers."""
    with gateway_with(redis_url, GATEWAY_PROTOCOL, GRIDSIGHT_BODY_IDLE_SECONDS="1",
                      GRIDSIGHT_HEADER_SECONDS="2") as base:
        yield int(base.rsplit(":", 1)[1])


def test_a_body_that_stops_arriving_is_cut_off(impatient):
    with socket.create_connection(("127.0.0.1", impatient), timeout=10) as sock:
        sock.sendall(b"POST /v1/jobs HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
                     b"Content-Length: 1000\r\n\r\n53..7....")
        started = time.monotonic()
        answer = sock.recv(4096)
        assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
        assert time.monotonic() - started < 5


def closed_within(sock: socket.socket, seconds: float, trickle: bytes) -> float | None:
    """Send `trickle` a byte every 0.25 s until the server closes the connection; the
    seconds that took, or None if it stayed open for `seconds`."""
    started = time.monotonic()
    sock.settimeout(0.25)
    for byte in (trickle[i:i + 1] for i in range(len(trickle))):
        if time.monotonic() - started > seconds:
            return None
        try:
            sock.sendall(byte)
            if sock.recv(4096) == b"":
                return time.monotonic() - started
        except TimeoutError:
            continue
        except OSError:  # reset by the server
            return time.monotonic() - started
    return None


def test_headers_sent_a_byte_at_a_time_are_cut_off(impatient):
    with socket.create_connection(("127.0.0.1", impatient), timeout=10) as sock:
        seconds = closed_within(sock, 8, b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + b"X" * 100)
    assert seconds is not None and seconds < 4, seconds


def test_a_body_trickled_slower_than_the_least_rate_is_cut_off(impatient):
    """A byte every 0.25 s never leaves the body idle for 1 s, but is far below the least
    rate (1 KiB/s after the first second)."""
    with socket.create_connection(("127.0.0.1", impatient), timeout=10) as sock:
        sock.sendall(b"POST /v1/jobs HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
                     b"Content-Length: 1000\r\n\r\n")
        seconds = closed_within(sock, 8, b"5" * 1000)
    assert seconds is not None and seconds < 4, seconds


def test_a_chunked_corrections_body_over_the_limit_is_413_before_its_end(impatient):
    with socket.create_connection(("127.0.0.1", impatient), timeout=10) as sock:
        sock.sendall(b"POST /v1/jobs/AAAAAAAAAAAAAAAAAAAAAAAA/corrections HTTP/1.1\r\n"
                     b"Host: x\r\nContent-Type: application/json\r\n"
                     b"Transfer-Encoding: chunked\r\n\r\n")
        chunk = b'{"cells": [' + b" " * (64 * 1024)
        for _ in range(6):  # 384 KiB, over the 256 KiB limit; the body never ends
            sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            chunk = b" " * (64 * 1024)
        answer = sock.recv(4096)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]


def test_huge_headers_are_refused(client):
    response = client.get("/healthz", headers={"X-Filler": "a" * 64 * 1024})
    assert response.status_code == 431


def test_huge_headers_sent_in_pieces_are_refused_the_same_way(impatient):
    with socket.create_connection(("127.0.0.1", impatient), timeout=10) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        for piece in range(3):  # 8 KiB a piece, each its own read: 24 KiB in all
            sock.sendall(b"X-Filler-%d: %s\r\n" % (piece, b"a" * 8192))
            time.sleep(0.1)
        answer = sock.recv(4096)
    assert answer.startswith(b"HTTP/1.1 431"), answer[:200]
    assert b"Headers too large" in answer


@pytest.mark.parametrize("method", ["POST", "PUT"])
@pytest.mark.parametrize("cells", [
    [{"row": 0, "col": 0, "value": "5"}],
    [{"row": 0, "col": 0, "value": True}],
], ids=["string", "boolean"])
def test_corrections_are_taken_exactly_or_refused(client, cells, method):
    response = client.request(method, "/v1/jobs/AAAAAAAAAAAAAAAAAAAAAAAA/corrections",
                              json={"cells": cells})
    assert response.status_code == 422, response.text


def test_an_mpo_photo_is_taken_as_a_jpeg(client):
    """MPO (a JPEG followed by more pictures) is what many cameras write as .jpg."""
    import random

    from gridsight.synth.puzzles import make_sudoku
    from gridsight.synth.render import render_sudoku

    givens, _ = make_sudoku(random.Random(80))
    first = render_sudoku(givens, style="screenshot", seed=80).convert("RGB")
    buffer = io.BytesIO()
    first.save(buffer, "MPO", save_all=True, append_images=[first.rotate(90)])
    assert Image.open(io.BytesIO(buffer.getvalue())).format == "MPO"
    response = client.post("/v1/jobs", files={"image": ("camera.jpg", buffer.getvalue(),
                                                        "image/jpeg")})
    assert response.status_code == 202, response.text
    image = client.get(f"/v1/jobs/{response.json()['id']}/image")
    assert image.headers["content-type"] == "image/jpeg"


def test_the_worker_reads_pictures_up_to_the_configured_size():
    """GRIDSIGHT_MAX_IMAGE_PIXELS above 40 MP: the worker accepts what the gateway does."""
    done = subprocess.run(
        [sys.executable, "-c", "from services.recognizer.grid.decode import MAX_PIXELS; "
                               "print(MAX_PIXELS)"],
        cwd=ROOT, env=os.environ | {"GRIDSIGHT_MAX_IMAGE_PIXELS": "60000000"},
        capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "60000000", done.stderr[-500:]
