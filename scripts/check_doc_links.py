#!/usr/bin/env python3
"""Checks that every reference to the documentation leads somewhere, so that moving or renaming
a page cannot leave a reader at a dead end:
- in README.md and the Markdown files under docs/, bench/, examples/ and python/ of ROOT, each
  link [text](target) or ![alt](target) that is not a URL names a file or folder that exists
  (relative to the page), and its #anchor, if any, names a heading of the Markdown page it leads
  to (GitHub's slugs); links in code (fenced blocks, `spans`) are not links;
- in the sources, scripts, build files, tests and Markdown of ROOT (not tests/data), each path
  written from the root, docs/..., names a file or folder that exists: the comments, help texts
  and tests that point a reader at a page.
Prints every broken one as FILE:LINE: TARGET (why) and exits 1 if there is one, or if no link
was found at all (a checker that reads nothing passes nothing). Standard library only. Run by the
test suite (ctest: DocLinks).

    scripts/check_doc_links.py ROOT
"""
import pathlib
import re
import sys

FOLDERS = ("docs", "bench", "examples", "python")
# The closing "](target)" of a link or image: an image inside a link, [![alt](a)](b), has two.
LINK = re.compile(r"\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")
# docs/... as written in a comment or a help text: not the tail of a longer path (../docs/x).
MENTION = re.compile(r"(?<![\w./-])docs/[\w./-]*[\w/]")
MENTION_FOLDERS = ("apps", "bench", "cmake", "docs", "examples", "include", "python", "scripts",
                   "src", "tests", ".ci")
MENTION_SUFFIXES = {".cpp", ".hpp", ".h", ".cu", ".cuh", ".py", ".pyi", ".sh", ".cmake", ".txt",
                    ".toml", ".md", ""}


def pages(root):
    found = [root / "README.md"] if (root / "README.md").is_file() else []
    for folder in FOLDERS:
        if (root / folder).is_dir():
            found += sorted((root / folder).rglob("*.md"))
    return found


def prose_lines(path, blank_code_spans=True):
    """(line number, text) of the lines outside fenced code; code spans blanked unless asked
    not to (a heading's `code` is part of its anchor)."""
    fence = None
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        marker = FENCE.match(line)
        if marker:
            if fence is None:
                fence = marker.group(1)
            elif marker.group(1) == fence:
                fence = None
            continue
        if fence is None:
            yield number, (CODE_SPAN.sub(lambda m: " " * len(m.group(0)), line)
                           if blank_code_spans else line)


def slug(heading):
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text only
    text = re.sub(r"[^\w\- ]", "", text.lower())
    return text.replace(" ", "-")


def anchors(path):
    seen = {}
    for _, line in prose_lines(path, blank_code_spans=False):
        heading = HEADING.match(line)
        if heading:
            base = slug(heading.group(1))
            count = seen.get(base, 0)
            seen[base] = count + 1
            yield base if count == 0 else f"{base}-{count}"


def broken_links(root):
    """(page, line, target, why) of every broken link, and the number of links checked."""
    broken = []
    checked = 0
    anchor_cache = {}
    for page in pages(root):
        for number, line in prose_lines(page):
            for match in LINK.finditer(line):
                target = match.group(1)
                if not target or re.match(r"[A-Za-z][A-Za-z0-9+.-]*:", target):
                    continue  # a URL (http:, mailto:, ...): not ours to check offline
                checked += 1
                path_part, _, anchor = target.partition("#")
                dest = (page.parent / path_part).resolve() if path_part else page.resolve()
                if not dest.exists():
                    broken.append((page, number, target, "no such file"))
                    continue
                if anchor and dest.suffix == ".md" and dest.is_file():
                    if dest not in anchor_cache:
                        anchor_cache[dest] = set(anchors(dest))
                    if anchor.lower() not in anchor_cache[dest]:
                        broken.append((page, number, target, "no such heading"))
    return broken, checked


def mention_files(root):
    found = [root / name for name in ("CMakeLists.txt", "README.md", "pyproject.toml", "setup.py")
             if (root / name).is_file()]
    for folder in MENTION_FOLDERS:
        if (root / folder).is_dir():
            found += sorted(path for path in (root / folder).rglob("*")
                            if path.is_file() and path.suffix in MENTION_SUFFIXES
                            and (root / "tests" / "data") not in path.parents)
    return found


def broken_mentions(root):
    """(file, line, path, why) of every docs/... path that names nothing, and the number seen."""
    broken = []
    checked = 0
    for path in mention_files(root):
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue  # not text: nothing a reader follows
        for number, line in enumerate(text.splitlines(), 1):
            if path.suffix == ".md":
                line = LINK.sub("", line)  # a link's target is broken_links' to check
            for match in MENTION.finditer(line):
                checked += 1
                if not (root / match.group(0)).exists():
                    broken.append((path, number, match.group(0), "no such file"))
    return broken, checked


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    root = pathlib.Path(sys.argv[1]).resolve()
    broken, checked = broken_links(root)
    broken_paths, mentioned = broken_mentions(root)
    broken += broken_paths
    for page, number, target, why in broken:
        print(f"{page.relative_to(root)}:{number}: {target} ({why})")
    if checked == 0:
        print(f"no relative link found under {root}: nothing was checked")
        return 1
    if broken:
        print(f"{len(broken)} broken of {checked} relative links and {mentioned} docs/ paths")
        return 1
    print(f"{checked} relative links and {mentioned} docs/ paths, all lead somewhere")
    return 0


if __name__ == "__main__":
    sys.exit(main())
