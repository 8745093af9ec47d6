#!/usr/bin/env python3
"""Cuts an OpenAPI document down to some of its operations, as text.

    openapi-subset.py DOCUMENT OPERATION_ID...   (the subset on stdout)

Keeps the document's header (openapi, info, servers, security, tags), the paths' blocks of
the operations named (with their path's `parameters`), and of `components` the security
schemes and every entry those operations reference, directly or through other entries
(`$ref: '#/components/SECTION/NAME'`). Every kept block is the document's own text, line for
line, so the subset reads like the document and the drift test can find each of its blocks
in it (Integrations/OpenAPISession's DocumentationTests).

It reads the layout Server/openapi.yaml is written in (two spaces per level: paths and
component sections at 2, operations and component entries at 4), not YAML in general, and
fails when an operation named is not in the document.
"""
import re
import sys

REF = re.compile(r"#/components/([A-Za-z]+)/([A-Za-z0-9_.-]+)")
METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}


def indent(line):
    return len(line) - len(line.lstrip(" "))


def key(line):
    return line.strip().split(":", 1)[0].strip("'\"")


def blocks(lines, level):
    """Splits lines into (key, lines) blocks starting at `level` indentation."""
    result = []
    for line in lines:
        if line.strip() and indent(line) == level and not line.lstrip().startswith("#"):
            result.append((key(line), [line]))
        elif result:
            result[-1][1].append(line)
        elif line.strip():
            raise SystemExit(f"openapi-subset: unexpected line before the first block: {line!r}")
    return result


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    path, wanted = sys.argv[1], sys.argv[2:]
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    top = blocks(lines, 0)
    names = [name for name, _ in top]
    for needed in ("paths", "components"):
        if needed not in names:
            raise SystemExit(f"openapi-subset: {path} has no {needed}")

    out, found, refs = [], set(), set()
    for name, body in top:
        if name == "paths":
            out.append(body[0])
            for _, path_lines in blocks(body[1:], 2):
                kept = []
                for method, method_lines in blocks(path_lines[1:], 4):
                    ids = [l.split(":", 1)[1].strip() for l in method_lines if l.strip().startswith("operationId:")]
                    if method not in METHODS:
                        kept.append(("shared", method_lines))
                    elif ids and ids[0] in wanted:
                        found.add(ids[0])
                        kept.append(("operation", method_lines))
                if any(kind == "operation" for kind, _ in kept):
                    out.append(path_lines[0])
                    for _, method_lines in kept:
                        out.extend(method_lines)
                        refs.update(REF.findall("\n".join(method_lines)))
        elif name == "components":
            sections = {section: blocks(section_lines[1:], 4) for section, section_lines in blocks(body[1:], 2)}
            # The closure of the references, through the entries themselves.
            pending = list(refs)
            while pending:
                section, entry = pending.pop()
                for entry_name, entry_lines in sections.get(section, []):
                    if entry_name == entry:
                        for ref in REF.findall("\n".join(entry_lines)):
                            if ref not in refs:
                                refs.add(ref)
                                pending.append(ref)
            out.append(body[0])
            for section, section_lines in blocks(body[1:], 2):
                entries = [lines_ for entry, lines_ in sections[section]
                           if section == "securitySchemes" or (section, entry) in refs]
                if entries:
                    out.append(section_lines[0])
                    for entry_lines in entries:
                        out.extend(entry_lines)
        else:
            out.extend(body)

    missing = [operation for operation in wanted if operation not in found]
    if missing:
        raise SystemExit(f"openapi-subset: no operation {', '.join(missing)} in {path}")
    unresolved = sorted(f"{s}/{e}" for s, e in refs
                        if not any(name == e for name, _ in dict(sections).get(s, [])))
    if unresolved:
        raise SystemExit(f"openapi-subset: unresolved references: {', '.join(unresolved)}")
    # One blank line at most in a row, none at the end.
    text, previous_blank = [], False
    for line in out:
        blank = not line.strip()
        if not (blank and previous_blank):
            text.append(line)
        previous_blank = blank
    while text and not text[-1].strip():
        text.pop()
    sys.stdout.write("\n".join(text) + "\n")


if __name__ == "__main__":
    main()
