"""A real phone browser for the tests: Debian's headless Chromium driven by selenium through
Debian's chromedriver (`scripts/system-deps.sh --test` installs both). One owner for finding
them, the mark that skips without them, and the browser's options."""

from __future__ import annotations

import shutil
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
needs_chromium = pytest.mark.skipif(CHROMIUM is None or DRIVER is None,
                                    reason="needs Debian's chromium and chromium-driver "
                                           "(scripts/system-deps.sh --test)")


def chromium(width: int = 360, height: int = 740, scrollbars: bool = True) -> Any:
    """A new headless Chromium with a fresh profile (its own storage: one phone), a window of
    `width` × `height` CSS pixels. The caller quits it."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--disable-extensions", f"--window-size={width},{height}",
                *(() if scrollbars else ("--hide-scrollbars",))):
        options.add_argument(arg)
    options.binary_location = CHROMIUM or ""
    return webdriver.Chrome(options=options, service=Service(DRIVER))
