"""uvicorn's h11 protocol with a deadline on request headers.

uvicorn times out idle keep-alive connections only: a client sending its headers a
byte at a time holds a connection (and its memory) for as long as it likes. Here a
request's headers must all have arrived within `header_seconds` of the connection
opening, or of the previous answer; past that the connection is closed. (Slow bodies
are the app's to cut off: services/gateway/app.py, LimitBody.)

    uvicorn services.gateway.app:app --http services.gateway.connections:HeaderDeadlineH11
"""

from __future__ import annotations

import asyncio
import json

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from services.gateway.problems import HEADERS_TOO_LARGE, MAX_HEADER_BYTES, PROBLEM_JSON
from services.settings import get_settings


class HeaderDeadlineH11(H11Protocol):
    header_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self._await_headers()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if not self._waiting_for_headers():
            self._stop_waiting()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self._waiting_for_headers():
            self._await_headers()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_waiting()
        super().connection_lost(exc)

    def send_400_response(self, msg: str) -> None:
        # Headers over h11's buffer that arrive in pieces end here; arriving whole, they
        # reach the app, which answers 431. Either way the client gets the same answer.
        buffered, _ = self.conn.trailing_data
        if not (self._waiting_for_headers() and len(buffered) > MAX_HEADER_BYTES):
            return super().send_400_response(msg)
        body = json.dumps(HEADERS_TOO_LARGE.model_dump()).encode()
        for event in (h11.Response(status_code=431, headers=[
                          (b"content-type", PROBLEM_JSON.encode()),
                          (b"content-length", str(len(body)).encode()),
                          (b"connection", b"close")]),
                      h11.Data(data=body), h11.EndOfMessage()):
            self.transport.write(self.conn.send(event))
        self.transport.close()

    def _waiting_for_headers(self) -> bool:
        return self.cycle is None or self.cycle.response_complete

    def _await_headers(self) -> None:
        self._stop_waiting()
        self.header_deadline = self.loop.call_later(get_settings().header_seconds,
                                                    self._headers_too_slow)

    def _stop_waiting(self) -> None:
        if self.header_deadline is not None:
            self.header_deadline.cancel()
            self.header_deadline = None

    def _headers_too_slow(self) -> None:
        self.header_deadline = None
        if self._waiting_for_headers() and not self.transport.is_closing():
            self.transport.close()
