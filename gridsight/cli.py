"""`gridsight solve` reads and solves locally, `gridsight hint` gives the next step;
`gridsight serve` runs the whole service."""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
from pathlib import Path

IMAGE_MAGIC = (b"\xff\xd8\xff", b"\x89PNG", b"RIFF", b"BM", b"II*\x00", b"MM\x00*", b"GIF8")


def looks_like_image(data: bytes) -> bool:
    return data.startswith(IMAGE_MAGIC)


def result_line(source: str, result, reading=None) -> dict:
    """The CLI's JSON contract: one object per puzzle."""
    puzzle = result.puzzle
    line = {
        "input": source,
        "status": result.status,
        "verdict": result.verdict,
        "kind": result.kind,
        "size": result.size,
        "givens": getattr(puzzle, "givens", None),
        "solution": result.solution,
        "seconds": round(result.seconds, 4),
    }
    if result.kind == "nonogram":
        line |= {"width": result.width, "height": result.height}
    if getattr(puzzle, "box", None) is not None:
        line["box"] = list(puzzle.box)
    if result.symbols is not None:  # how the picture printed values above 9
        line["symbols"] = result.symbols
    if result.kind == "killer" and puzzle is not None:
        line["cages"] = [cage.model_dump(mode="json") for cage in puzzle.cages]
    if result.other_solution is not None:
        line["other_solution"] = result.other_solution
    for name in ("suspects", "uncertain"):
        if getattr(result, name):
            line[name] = [s.model_dump(mode="json") for s in getattr(result, name)]
    if result.conflicts:
        line["conflicts"] = result.conflicts
    if result.entries is not None:  # a page the person wrote on
        line |= {"entries": result.entries, "notes": [list(n) for n in result.notes],
                 "wrong_entries": [w.model_dump(mode="json") for w in result.wrong_entries],
                 "entries_used": result.entries_used}
    if result.message:
        line["message"] = result.message
    if reading is not None:
        if reading.rotation:
            line["rotation"] = reading.rotation
        if reading.warnings:
            line["warnings"] = reading.warnings
        line["timings"] = reading.timings
    return line


def error_line(source: str, error: Exception) -> dict:
    return {"input": source, "status": "failed", "error": str(error)}


def solve_image(source: str, data: bytes, kind: str, time_limit: float) -> list[dict]:
    from services.recognizer import RecognitionError, recognize
    from services.solver import PuzzleError, solve_page

    try:
        reading = recognize(data, kind)
        return [result_line(source, solve_page(reading, time_limit=time_limit), reading)]
    except (RecognitionError, PuzzleError) as exc:
        return [error_line(source, exc)]


def solve_text(source: str, text: str, kind: str, time_limit: float) -> list[dict]:
    from services.solver import PuzzleError, parse_puzzles, solve_puzzle

    try:
        puzzles = parse_puzzles(text, None if kind == "auto" else kind)
    except PuzzleError as exc:
        return [error_line(source, exc)]
    lines = []
    for number, puzzle in enumerate(puzzles, start=1):
        name = source if len(puzzles) == 1 else f"{source}#{number}"
        try:
            lines.append(result_line(name, solve_puzzle(puzzle, time_limit=time_limit)))
        except PuzzleError as exc:
            lines.append(error_line(name, exc))
    return lines


def show(line: dict) -> str:
    """A short human-readable form of one result."""
    head = f"{line['input']}: {line['status']}"
    if "error" in line:
        return f"{head} - {line['error']}"
    head += f" ({line['kind']}, {line['verdict']}, {line['seconds']} s)"
    rows = line.get("solution") or []
    from services.contracts import symbol_text

    symbols = line.get("symbols")
    body = [row if isinstance(row, str) else " ".join(symbol_text(v, symbols) for v in row)
            for row in rows]
    for suspect in line.get("suspects", []):
        body.append(f"suspect: {suspect['what']} at row {suspect['row']}, col {suspect['col']}"
                    f" read {suspect['read']} -> {suspect['chosen']}")
    return "\n".join([head, *body])


def cmd_solve(args: argparse.Namespace) -> int:
    if not args.paths and args.text is None:
        print("gridsight solve: give image or puzzle files, or --text", file=sys.stderr)
        return 2
    sources: list[tuple[str, bytes | None, str | None]] = []
    if args.text is not None:
        sources.append(("<text>", None, args.text))
    for name in args.paths:
        path = Path(name)
        try:
            sources.append((name, path.read_bytes(), None))
        except OSError as exc:
            sources.append((name, None, None))
            print(json.dumps(error_line(name, exc)) if args.json else f"{name}: {exc}")
    failed = False
    for name, data, text in sources:
        if data is None and text is None:
            failed = True
            continue
        if data is not None and looks_like_image(data):
            lines = solve_image(name, data, args.kind, args.time_limit)
        else:
            text = text if text is not None else data.decode("utf-8", errors="replace")
            lines = solve_text(name, text, args.kind, args.time_limit)
        for line in lines:
            failed |= "error" in line
            print(json.dumps(line) if args.json else show(line), flush=True)
    return 1 if failed else 0


def hint_line(source: str, result, whole: bool) -> dict:
    """The hint contract: {"input", "rating", "steps"} (the next step, or all of them)."""
    from services.solver.hints import rate_result

    if result.kind == "nonogram":
        return {"input": source, "status": "failed",
                "error": "hints are for sudoku and killer sudoku"}
    _, path = rate_result(result)
    if path is None:
        return {"input": source, "status": "failed",
                "error": f"hints need a puzzle with exactly one solution; the verdict is "
                         f"{result.verdict}"}
    steps = path["steps"]
    return {"input": source, "rating": path["rating"],
            "steps": steps if whole else steps[:1], "remaining": len(steps)}


def show_hints(line: dict) -> str:
    if "error" in line:
        return f"{line['input']}: {line['status']} - {line['error']}"
    rating = line["rating"]
    head = (f"{line['input']}: {rating['level']} (score {rating['score']}, hardest "
            f"{rating['hardest']}, {rating['steps']} steps)")
    return "\n".join([head] + [f"{k}. {step['technique']}: {step['text']}"
                               for k, step in enumerate(line["steps"], start=1)])


def cmd_hint(args: argparse.Namespace) -> int:
    from services.recognizer import RecognitionError, recognize
    from services.solver import PuzzleError, parse_puzzles, solve_page, solve_puzzle

    failed = False
    for name in args.paths:
        try:
            data = Path(name).read_bytes()
            if looks_like_image(data):
                results = [(name, solve_page(recognize(data, args.kind)))]
            else:
                puzzles = parse_puzzles(data.decode("utf-8", errors="replace"),
                                        None if args.kind == "auto" else args.kind)
                results = [(name if len(puzzles) == 1 else f"{name}#{k}", solve_puzzle(p))
                           for k, p in enumerate(puzzles, start=1)]
            lines = [hint_line(source, result, args.all) for source, result in results]
        except (OSError, RecognitionError, PuzzleError) as exc:
            lines = [error_line(name, exc)]
        for line in lines:
            failed |= "error" in line
            print(json.dumps(line) if args.json else show_hints(line), flush=True)
    return 1 if failed else 0


DEFAULT_DATA = "~/.local/share/gridsight"


def cmd_serve(args: argparse.Namespace) -> int:
    from gridsight.stack import FolderInUse, Stack, hold_data_folder, unprivileged_user

    data = Path(args.data).expanduser()
    try:
        # Held until this process ends: a second serve on the same folder would start a
        # second Redis on the same append-only file.
        lock = hold_data_folder(data)  # noqa: F841 - held, not used
    except FolderInUse as exc:
        print(f"gridsight serve: {exc}", file=sys.stderr)
        return 1
    # Stop the children on `kill` as on Ctrl-C: SystemExit unwinds through Stack.close().
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    user, why_not = unprivileged_user()
    if why_not:
        print(f"gridsight: workers run as root: {why_not}", flush=True)
    with Stack(quiet=not args.verbose, worker_user=user) as stack:
        # The private redis-server keeps its data in an append-only file here, so that
        # its restart (or gridsight's) loses no job.
        stack.start_broker(data_dir=data)
        say(f"broker ready: {stack.broker} at {stack.redis_url}")
        stack.start_workers(recognize_processes=args.readers)
        url = stack.start_gateway(args.host, args.port)
        readiness = Readiness(url.replace("//0.0.0.0:", "//127.0.0.1:"),
                              as_user=f" (as {user})" if user else "")
        try:
            while True:  # supervise: a child that died is started again
                time.sleep(0.5)
                for command in stack.restart_dead():
                    print(f"gridsight: restarted a stopped process: {command}",
                          file=sys.stderr, flush=True)
                if readiness.announce() and not readiness.served:
                    readiness.served = True
                    say(f"serving on {url}")
        except KeyboardInterrupt:
            return 0


def say(line: str) -> None:
    print(f"gridsight: {line}", flush=True)


class Readiness:
    """Announces each service once, when the gateway's /healthz first shows it ready."""

    def __init__(self, url: str, as_user: str = ""):
        self.url, self.as_user = url, as_user
        self.ready: set[str] = set()
        self.served = False

    def announce(self) -> bool:
        """Whether all are ready (after saying which became ready since last asked)."""
        if self.served:
            return True
        health = self.health()
        if health is None:
            return False
        if "gateway" not in self.ready:
            self.ready.add("gateway")
            say("gateway ready")
        for queue, state in health.get("queues", {}).items():
            if state.get("workers") and queue not in self.ready:
                self.ready.add(queue)
                say(f"worker ready: {queue}{self.as_user}")
        return health.get("status") == "ok"

    def health(self) -> dict | None:
        import urllib.error
        import urllib.request

        try:
            with urllib.request.urlopen(f"{self.url}/healthz", timeout=3) as response:
                return json.loads(response.read())
        except urllib.error.HTTPError as exc:  # 503: some part is not ready yet
            try:
                body = json.loads(exc.read())
            except ValueError:
                return None
            return body if body.get("redis") else None
        except (OSError, ValueError):
            return None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gridsight", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    solve = commands.add_parser("solve", help="read and solve pictures or puzzle files locally")
    solve.add_argument("paths", nargs="*", help="images, or text/JSON files of puzzles")
    solve.add_argument("--text", help="a puzzle given on the command line")
    solve.add_argument("--kind", default="auto",
                       choices=["auto", "sudoku", "killer", "nonogram"])
    solve.add_argument("--json", action="store_true", help="one JSON object per line")
    solve.add_argument("--time-limit", type=float, default=10.0, help="seconds per puzzle")
    solve.set_defaults(run=cmd_solve)

    hint = commands.add_parser("hint", help="the next human-style step of a sudoku or killer "
                               "(a picture, possibly half solved, or a puzzle file)")
    hint.add_argument("paths", nargs="+", help="images, or text/JSON files of puzzles")
    hint.add_argument("--all", action="store_true", help="every step to the end")
    hint.add_argument("--kind", default="auto", choices=["auto", "sudoku", "killer"])
    hint.add_argument("--json", action="store_true", help="one JSON object per puzzle")
    hint.set_defaults(run=cmd_hint)

    serve = commands.add_parser("serve", help="run gateway, workers and a broker here")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--readers", type=int, default=os.cpu_count() or 1,
                       help="pool processes reading pictures (default: one per core)")
    serve.add_argument("--data", default=os.environ.get("GRIDSIGHT_DATA_DIR", DEFAULT_DATA),
                       help="folder of the private Redis's append-only file (default: "
                            f"$GRIDSIGHT_DATA_DIR or {DEFAULT_DATA}); one serve at a "
                            "time may use it")
    serve.add_argument("--verbose", action="store_true",
                       help="show the workers' banners, warnings and info logs")
    serve.set_defaults(run=cmd_serve)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
