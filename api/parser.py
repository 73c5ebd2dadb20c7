"""The API's JSON parser: the page forms' bounds on what a client may send, before json.loads.

A body is at most DATA_UPLOAD_MAX_MEMORY_SIZE (Django refuses more), UTF-8, and nests at most
MAX_DEPTH arrays or objects: the parser recurses once per level, and thousands of levels would
exhaust the stack (games.forms.json_depth counts them without parsing)."""

from __future__ import annotations

import json
from typing import Any, cast

from django.http import HttpRequest
from ninja.parser import Parser

from games.forms import json_depth

MAX_DEPTH = 8


class BoundedJsonParser(Parser):
    def parse_body(self, request: HttpRequest) -> dict[str, Any]:
        text = request.body.decode("utf-8")  # an error here is answered 400 by ninja
        if json_depth(text) > MAX_DEPTH:
            raise ValueError(f"the JSON nests deeper than {MAX_DEPTH} levels")
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("the body must be a JSON object")
        return cast(dict[str, Any], data)
