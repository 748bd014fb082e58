"""A real headless Chromium (Debian's package) driven by Playwright, against the service."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


def chromium_path() -> str | None:
    if CHROMIUM.exists():
        return str(CHROMIUM)
    return shutil.which("chromium")


@pytest.fixture(scope="session")
def browser():
    path = chromium_path()
    if path is None:
        pytest.skip("Chromium is not installed (apt-get install chromium); scripts/setup "
                    "installs it")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("the playwright package is missing: .venv/bin/pip install playwright "
                    "(never `playwright install`; the tests use Debian's Chromium)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def open_page(browser, service, **context_options):
    """A fresh page on the service; after the test, no JavaScript error may have happened."""
    context = browser.new_context(base_url=service, **context_options)
    context.set_default_timeout(20_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.fixture()
def page(browser, service):
    yield from open_page(browser, service, viewport={"width": 1100, "height": 900})


SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(params=list(SIZES))
def sized(request, browser, service):
    """A page at a desktop's and at a phone's width (a phone: touch, as a phone has)."""
    phone = request.param == "phone"
    yield from open_page(browser, service, viewport=SIZES[request.param],
                         has_touch=phone, is_mobile=phone)
