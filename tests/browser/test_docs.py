"""The interactive API docs under their Content-Security-Policy, in a real browser: the
page's inline script (allowed by its hash) starts Swagger UI, and the policy blocks
nothing the page loads."""

from __future__ import annotations


def test_the_docs_run_under_their_content_security_policy(page):
    violations: list[str] = []
    page.on("console", lambda message: violations.append(message.text)
            if "Content Security Policy" in message.text else None)
    loaded: list[str] = []
    page.on("response", lambda response: loaded.append(response.url.split("/", 3)[-1]))
    response = page.goto("/docs")
    policy = response.headers["content-security-policy"]
    assert "script-src 'self' 'sha256-" in policy and "'unsafe-eval'" not in policy
    assert "frame-ancestors 'none'" in policy
    # Swagger UI, started by the inline script, draws into the page and fetches the schema.
    page.wait_for_selector("#swagger-ui .swagger-ui", state="attached")
    page.wait_for_load_state("networkidle")
    assert "docs/openapi.json" in loaded
    assert not violations, violations


def test_the_docs_list_every_route(page):
    page.goto("/docs")
    page.wait_for_selector(".opblock", timeout=20_000)
    shown = page.locator(".opblock-summary-path").all_inner_texts()
    assert "/v1/jobs" in shown and "/v1/jobs/{job_id}/hint" in shown, shown
    assert "Unable to render" not in page.inner_text("body")
