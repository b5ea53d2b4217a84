#!/usr/bin/env bash
# Validates a sample of every MCP message type, per protocol version, written by this
# crate, with schemas nobody here wrote:
#   * the official TypeScript SDK's zod schemas (npm @modelcontextprotocol/sdk 1.32.2 and
#     @modelcontextprotocol/core 2.4.0, pinned in package.json / package-lock.json);
#   * the official Python SDK's pydantic models (PyPI mcp-types 2.3.0, pinned in
#     requirements.txt), per protocol version.
# A deliberately broken sample set is checked first: both validators must reject every
# broken message and report the misspelt field, or the run fails.
#
# Needs node >= 20, npm, python3 >= 3.10 with venv. Packages are installed once into
# $MCP_SCHEMA_CACHE (default .ci/cache/schema, git-ignored) and reused while the pins
# are unchanged.
set -euo pipefail
cd "$(dirname "$0")/../.."
here=tests/schema
cache=${MCP_SCHEMA_CACHE:-.ci/cache/schema}
mkdir -p "$cache"

node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$node_major" -lt 20 ]; then
    echo "schema validation: node >= 20 needed, found $(node --version)" >&2
    exit 1
fi

# ---- TypeScript SDK ----
stamp=$(cat "$here/package.json" "$here/package-lock.json" | sha256sum | cut -c1-16)
if [ "$(cat "$cache/node/.stamp" 2>/dev/null)" != "$stamp" ]; then
    rm -rf "$cache/node"
    mkdir -p "$cache/node"
    cp "$here/package.json" "$here/package-lock.json" "$cache/node/"
    (cd "$cache/node" && npm ci --no-audit --no-fund --loglevel=error)
    echo "$stamp" > "$cache/node/.stamp"
fi
cp "$here/validate.mjs" "$cache/node/"

# ---- Python SDK ----
stamp=$(sha256sum < "$here/requirements.txt" | cut -c1-16)
if [ "$(cat "$cache/venv/.stamp" 2>/dev/null)" != "$stamp" ]; then
    rm -rf "$cache/venv"
    python3 -m venv "$cache/venv"
    "$cache/venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt"
    echo "$stamp" > "$cache/venv/.stamp"
fi

# ---- samples ----
cargo run --quiet --example schema_samples -- "$cache/samples.jsonl"
echo "schema validation: $(wc -l < "$cache/samples.jsonl") sample messages"

# ---- the validators must catch broken messages ----
broken=$(cd "$cache/node" && node validate.mjs "$OLDPWD/$here/broken.jsonl" || true)
pybroken=$("$cache/venv/bin/python" "$here/validate.py" "$here/broken.jsonl" || true)
for out in "$broken" "$pybroken"; do
    if ! grep -q ": 1 valid, 4 invalid" <<<"$out" || ! grep -q "descripton" <<<"$out"; then
        echo "schema validation: a validator did not reject the broken samples:" >&2
        echo "$out" >&2
        exit 1
    fi
done

# ---- the real run ----
status=0
echo "== TypeScript SDK (zod)"
(cd "$cache/node" && node validate.mjs "$OLDPWD/$cache/samples.jsonl") || status=1
echo "== Python SDK (pydantic)"
"$cache/venv/bin/python" "$here/validate.py" "$cache/samples.jsonl" || status=1
if [ "$status" -ne 0 ]; then
    echo "schema validation: FAILED"
else
    echo "schema validation: every sample valid for every SDK that has a schema for it"
fi
exit "$status"
