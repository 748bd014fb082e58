"""Headers and cross-site writes, on the running gateway."""

from __future__ import annotations

TEXT = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def post(client, origin: str | None):
    headers = {"content-type": "text/plain"} | ({"Origin": origin} if origin else {})
    return client.post("/v1/jobs", content=TEXT, headers=headers)


def test_a_post_from_another_site_is_refused(client):
    refused = post(client, "https://evil.example")
    assert refused.status_code == 403
    assert refused.headers["content-type"].startswith("application/problem+json")


def test_posts_from_the_page_itself_and_from_tools_are_taken(client):
    assert post(client, str(client.base_url).rstrip("/")).status_code == 202
    assert post(client, None).status_code == 202  # curl and scripts send no Origin


def test_answers_carry_security_headers(client):
    for path in ("/", "/v1/jobs/" + "a" * 24, "/healthz"):
        headers = client.get(path).headers
        assert headers["x-content-type-options"] == "nosniff", path
        assert "frame-ancestors 'none'" in headers["content-security-policy"], path
    assert client.get("/docs").headers["x-content-type-options"] == "nosniff"


def test_the_docs_load_swagger_ui_from_the_gateway_not_a_cdn(client):
    page = client.get("/docs")
    assert page.status_code == 200
    assert "cdn." not in page.text and "/docs-assets/swagger-ui-bundle.js" in page.text
    script = client.get("/docs-assets/swagger-ui-bundle.js")
    assert script.status_code == 200 and len(script.content) > 100_000
