"""Checks the schemas tests/toolkit_schema.rs wrote with the `jsonschema` package (not
ours): each is a valid draft 2020-12 schema, and each sample is valid against its schema
exactly when this crate's decoder took it.

    python validate_schemas.py SAMPLES.jsonl
"""
import json
import sys

from jsonschema import Draft202012Validator

schemas = {}
failures = []
samples = 0
with open(sys.argv[1], encoding="utf-8") as f:
    for line in f:
        record = json.loads(line)
        name = record["name"]
        if "schema" in record:
            try:
                Draft202012Validator.check_schema(record["schema"])
                schemas[name] = Draft202012Validator(record["schema"])
            except Exception as e:  # noqa: BLE001 - report whatever the metaschema says
                failures.append(f"{name}: not a valid draft 2020-12 schema: {str(e).splitlines()[0]}")
            continue
        samples += 1
        if name not in schemas:
            continue
        valid = schemas[name].is_valid(record["instance"])
        if valid != record["decodes"]:
            why = "; ".join(e.message for e in schemas[name].iter_errors(record["instance"])) or "valid"
            failures.append(
                f"{name}: {json.dumps(record['instance'])}: the schema says "
                f"{'valid' if valid else 'invalid'} ({why}), the decoder {'took' if record['decodes'] else 'refused'} it"
            )

print(f"jsonschema {Draft202012Validator.META_SCHEMA['$id']}: {len(schemas)} schemas, {samples} samples")
for failure in failures:
    print("MISMATCH", failure)
sys.exit(1 if failures else 0)
