"""JSON log lines, one object per line, carrying the job id across all services."""

from __future__ import annotations

import json
import logging
import time

STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime"}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        # Fields passed with `extra=` (job_id, stage, seconds...) go in as they are.
        entry |= {k: v for k, v in vars(record).items() if k not in STANDARD}
        if record.exc_info:
            entry["error"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


def configure_json_logging(level: int | None = None) -> None:
    """JSON lines on stderr, from `level` up (default: GRIDSIGHT_LOG_LEVEL, info)."""
    if level is None:
        from services.settings import get_settings

        level = logging.getLevelNamesMapping().get(get_settings().log_level.upper(),
                                                   logging.INFO)
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # Celery's own lines for every task received and done repeat the task's whole
    # arguments (a reading is kilobytes); ours carry the job id and the stage instead.
    logging.getLogger("celery").setLevel(max(level, logging.WARNING))
    # uvicorn installs handlers of its own (plain text, tracebacks over many lines): its
    # lines go through ours instead, one JSON object each.
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).handlers[:] = []
        logging.getLogger(name).propagate = True
