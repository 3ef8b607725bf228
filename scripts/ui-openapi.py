#!/usr/bin/env python3
"""Prints an OpenAPI document of the person's channel for schemathesis: the
/v1 paths whose handlers the app uses again under /ui (crates/service/src/http/
router.rs), moved there, and /ui/settings (GET the file, PATCH a merge).
Usage: scripts/ui-openapi.py V1_OPENAPI.json > ui-openapi.json"""

import json
import sys

MOVED = {
    "/v1/health": "/ui/health",
    "/v1/import": "/ui/import",
    "/v1/ledger": "/ui/ledger",
    "/v1/meetings": "/ui/meetings",
    "/v1/meetings/{id}": "/ui/meetings/{id}",
    "/v1/meetings/{id}/action_items/{item_id}": "/ui/meetings/{id}/action_items/{item_id}",
    "/v1/meetings/{id}/notes": "/ui/meetings/{id}/notes",
    "/v1/meetings/{id}/transcript": "/ui/meetings/{id}/transcript",
    "/v1/policy": "/ui/policy",
    "/v1/recording/marker": "/ui/recording/marker",
    "/v1/search": "/ui/search",
    "/v1/search/meetings": "/ui/search/meetings",
    "/v1/ask": "/ui/ask",
    "/v1/settings": "/ui/settings/effective",
    "/v1/templates": "/ui/templates",
}


def error(description: str) -> dict:
    return {"description": description,
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}}


def settings_path() -> dict:
    document = {"application/json": {"schema": {"type": "object"}}}
    return {
        "get": {
            "summary": "settings.json as it is on disk",
            "security": [{"bearer": []}],
            "responses": {"200": {"description": "the file", "content": document},
                          "401": error("no session"), "403": error("refused")},
        },
        "patch": {
            "summary": "merge patch of settings.json",
            "security": [{"bearer": []}],
            "requestBody": {"required": True, "content": document},
            "responses": {"200": {"description": "the file after the change", "content": document},
                          "400": error("not a valid change"), "401": error("no session"),
                          "403": error("a managed key"), "413": error("too large"),
                          "415": error("not JSON")},
        },
    }


def main() -> None:
    v1 = json.load(open(sys.argv[1]))
    paths = {MOVED[path]: item for path, item in v1["paths"].items() if path in MOVED}
    paths["/ui/settings"] = settings_path()
    v1["paths"] = paths
    v1["info"]["title"] = v1["info"].get("title", "recorder") + " (person's channel)"
    json.dump(v1, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
