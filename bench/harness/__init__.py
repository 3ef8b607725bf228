"""The bench scripts' shared harness (Python 3.11 standard library).

What every scenario script needs and none should carry itself; the scripts
in bench/ keep their scenarios, checks and report text and import the rest:

  common    paths (ROOT, the test models), logging, percentiles, checks of
            what a run needs (files, tools), the binary's copy and its date,
            the checkout's head
  service   `recorder serve --port 0` on a data folder: its environment, its
            `recorder listening on` line, tokens, SIGTERM/SIGKILL, and a
            Killer that SIGKILLs it after a delay
  client    blocking HTTP (http.client): one request, a slow upload
  aio       HTTP over asyncio streams (keep-alive, chunked bodies, event
            streams) for scripts that hold many connections at once
  audio     speech and silence with espeak-ng and sox, WAV lengths, a
            two-sided call from bench/fixtures/meeting-script.txt
  seeding   meetings written into recorder.db (service stopped) or imported
            through the API, and the development licence (Pro in debug builds)
  sampling  a process's RSS, CPU time, fds and threads from /proc; whether a
            compiler is running
  report    Markdown table lines, the service log's warnings, writing a result

Not run on its own. A script in bench/ imports it as `harness` (Python puts the
script's folder first on sys.path), e.g. `from harness.service import Service`.
"""
