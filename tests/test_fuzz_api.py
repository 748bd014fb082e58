"""schemathesis fuzzes every operation of the OpenAPI schema against the running gateway:
no 500s, and every response matches the schema (bounded in examples and time)."""

from __future__ import annotations

import schemathesis
from hypothesis import HealthCheck, settings

from services.gateway.app import create_app

schema = schemathesis.openapi.from_dict(create_app().openapi())
# Whether a schema-valid upload is acceptable depends on its pixels (a 1x1 PNG is a valid
# `binary` but no puzzle), which no schema can say: that one check is left out.
CONTENT_DEPENDENT = [schemathesis.checks.positive_data_acceptance]


@schema.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_has_no_server_errors_and_keeps_its_schema(case, service):
    case.call_and_validate(base_url=service, excluded_checks=CONTENT_DEPENDENT)
