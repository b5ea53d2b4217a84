#!/usr/bin/env python3
"""The options examples/client runs with against a server of servers.json, for one
protocol version, one per line: ourClient, plus ourClientSince entries for that version
or newer.

    client_options.py PROFILE VERSION
"""

import json
import sys
from pathlib import Path

ORDER = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]
profile = json.loads((Path(__file__).resolve().parent / "servers.json").read_text())[sys.argv[1]]
options = list(profile["ourClient"])
for since, more in profile.get("ourClientSince", {}).items():
    if ORDER.index(sys.argv[2]) >= ORDER.index(since):
        options += more
print("\n".join(options))
