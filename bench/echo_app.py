"""A one-task Celery app for bench/broker.py; broker and backend come from the environment."""

import json
import os

from celery import Celery

app = Celery("echo", broker=os.environ["BENCH_BROKER_URL"],
             backend=os.environ["BENCH_RESULT_BACKEND"])
app.conf.broker_transport_options = json.loads(os.environ.get("BENCH_TRANSPORT_OPTIONS", "{}"))
app.conf.broker_connection_retry_on_startup = True


@app.task(name="echo")
def echo(value):
    return value
