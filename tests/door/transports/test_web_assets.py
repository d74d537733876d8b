"""The page's files are gzipped once, as the listener starts, not at every request:
gzipping xterm.js (345 KB) took 14.6 ms of the worker at each fresh page load, every
caller waiting. A browser that takes gzip gets the same bytes gzipped; one that does not
gets them as they are."""

from __future__ import annotations

import gzip
import zlib
from importlib import resources
from typing import Any

import pytest

from tests.door.caller import run_async
from tests.door.transports.test_web_defence import web_door
from tests.door.transports.test_web_proxy import get

DIRECT: dict[str, Any] = {"trusted_proxies": []}
XTERM = resources.files("door.resources").joinpath("web", "xterm.mjs").read_bytes()


def split(answer: bytes) -> tuple[str, bytes]:
    head, _, body = answer.partition(b"\r\n\r\n")
    return head.decode("latin-1").lower(), body


@run_async
async def test_gzipped_for_a_browser_that_takes_gzip_and_plain_for_one_that_does_not() -> None:
    async with web_door(DIRECT) as (_door, port):
        head, body = split(await get(port, "/xterm.mjs", {"Accept-Encoding": "gzip, br"}))
        assert "content-encoding: gzip" in head and "vary: accept-encoding" in head
        assert gzip.decompress(body) == XTERM and len(body) < len(XTERM) // 3
        for refused in ("", "identity", "gzip;q=0"):
            headers = {"Accept-Encoding": refused} if refused else {}
            head, body = split(await get(port, "/xterm.mjs", headers))
            assert "content-encoding" not in head and body == XTERM, refused


@run_async
async def test_no_file_is_compressed_while_callers_ask_for_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async with web_door(DIRECT) as (_door, port):
        compressions = []
        for module, name in ((zlib, "compress"), (zlib, "compressobj")):
            real = getattr(module, name)

            def counting(*args: Any, real: Any = real, name: str = name, **kwargs: Any) -> Any:
                compressions.append(name)
                return real(*args, **kwargs)

            monkeypatch.setattr(module, name, counting)
        for path in ("/xterm.mjs", "/xterm.css", "/door.mjs", "/addon-fit.mjs"):
            head, body = split(await get(port, path, {"Accept-Encoding": "gzip"}))
            assert head.startswith("http/1.1 200") and "content-encoding: gzip" in head, path
            assert gzip.decompress(body)
        assert compressions == []
