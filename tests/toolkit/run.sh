#!/usr/bin/env bash
# The toolkit's checks that need software from elsewhere (issue 13, "Checks"):
#
#   tests/toolkit/run.sh            the schemas schema! makes, checked by python-jsonschema
#                                   against the draft 2020-12 metaschema, and every sample
#                                   argument against its schema (tests/toolkit_schema.rs)
#
# The validator is pinned (requirements.txt) and installed once into
# $MCP_TOOLKIT_CACHE (default .ci/cache/toolkit, git-ignored). Needs python3 >= 3.10
# with venv.
set -euo pipefail
cd "$(dirname "$0")/../.."
here=tests/toolkit
cache=${MCP_TOOLKIT_CACHE:-.ci/cache/toolkit}
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)

stamp=$(sha256sum < "$here/requirements.txt" | cut -c1-16)
if [ "$(cat "$cache/venv/.stamp" 2>/dev/null)" != "$stamp" ]; then
    rm -rf "$cache/venv"
    python3 -m venv "$cache/venv"
    "$cache/venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt"
    echo "$stamp" > "$cache/venv/.stamp"
fi

MCP_TOOLKIT_VALIDATOR="$cache/venv/bin/python" cargo test --quiet --test toolkit_schema -- --ignored --nocapture
