"""The HTTP front door: takes uploads, queues jobs by task name, reports their state."""
