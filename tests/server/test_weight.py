"""The page's weight (issue 48): its scripts and styles are sent compressed to a browser that
takes gzip, and as they are to one that does not."""

from __future__ import annotations

from starlette.testclient import TestClient


def test_static_files_are_compressed_when_asked(client: TestClient) -> None:
    plain = client.get("/static/js/main.js", headers={"Accept-Encoding": "identity"})
    assert plain.status_code == 200 and "content-encoding" not in plain.headers
    packed = client.get("/static/js/main.js", headers={"Accept-Encoding": "gzip"})
    assert packed.status_code == 200 and packed.headers["content-encoding"] == "gzip"
    assert packed.text == plain.text            # the client unpacks it: the same script
    assert int(packed.headers["content-length"]) < len(plain.content) / 2
    page = client.get("/", headers={"Accept-Encoding": "gzip"})
    assert page.headers.get("content-encoding") == "gzip"


def test_the_page_is_installable(client: TestClient) -> None:
    page = client.get("/").text
    assert '<link rel="manifest" href="/static/manifest.json">' in page
    manifest = client.get("/static/manifest.json").json()
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == ("/", "/",
                                                                               "standalone")
    assert client.get(manifest["icons"][0]["src"]).status_code == 200
    worker = client.get("/sw.js")
    assert worker.status_code == 200
    assert worker.headers["content-type"].startswith("text/javascript")
    assert "/api/" not in worker.text.split("respondWith")[0].split("isStatic =")[1]
