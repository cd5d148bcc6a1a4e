"""`pyflink-on-spark`: run a PyFlink job on Spark, draw its plan, check compatibility, plan a
migration."""
from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import traceback
from typing import List, Optional


def _parse_conf(items) -> Optional[List[tuple]]:
    """--conf key=value items as pairs; None (after saying why) if one has no '='."""
    conf = []
    for item in items or ():
        if "=" not in item:
            print("pyflink-on-spark: --conf expects key=value, got %r" % item, file=sys.stderr)
            return None
        key, value = item.split("=", 1)
        conf.append((key, value))
    return conf


def _savepoint_configuration(args) -> dict:
    """`run -s PATH [-n]`: the keys Flink's CLI sets for `flink run -s PATH -n`."""
    items = {}
    if args.from_savepoint:
        items["execution.savepoint.path"] = args.from_savepoint
    if args.allow_non_restored_state:
        items["execution.savepoint.ignore-unclaimed-state"] = "true"
    if args.savepoint_at_end:
        items["pyflink-on-spark.backfill.savepoint-dir"] = args.savepoint_at_end
    return items


def _run(args) -> int:
    conf = _parse_conf(args.conf)
    if conf is None:
        return 2
    if args.script is None:
        print("pyflink-on-spark run: give the PyFlink job script to run, e.g.\n"
              "  pyflink-on-spark run my_job.py [arguments for the script]",
              file=sys.stderr)
        return 2
    if not os.path.isfile(args.script):
        print("pyflink-on-spark: no such file: %s" % args.script, file=sys.stderr)
        return 2
    from pyflink_on_spark.cli.script_runner import run_script
    from pyflink_on_spark.spark import entry
    from pyflink_on_spark.spark.entry import (ConnectDependencyError, JavaNotFoundError,
                                              JobExecutionError)
    options = entry.run_options()
    if args.quiet and args.verbose:
        print("pyflink-on-spark run: --quiet and --verbose exclude each other", file=sys.stderr)
        return 2
    remote = args.remote or options.remote
    if not (remote or args.master or os.environ.get("SPARK_REMOTE")
            or any(key == "spark.master" for key, _ in conf)):
        remote = entry.served_url()   # `serve` is running: use it
        if remote and args.verbose:
            print("pyflink-on-spark: running on the Spark Connect server started by "
                  "`pyflink-on-spark serve` (%s)" % remote, file=sys.stderr)
    entry.set_run_options(dataclasses.replace(
        options, master=args.master or options.master, conf=options.conf + tuple(conf),
        verbose=args.verbose or options.verbose, remote=remote,
        progress=options.progress and not args.quiet, ui=args.ui or options.ui))
    from pyflink_on_spark.datastream.launch_configuration import set_launch_configuration
    set_launch_configuration(_savepoint_configuration(args))
    if not remote:
        entry.prestart_session(args.script)
    try:
        run_script(args.script, args.args, keep_globals=True)
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except (JavaNotFoundError, ConnectDependencyError) as e:
        print("pyflink-on-spark: %s" % e, file=sys.stderr)
        return 3
    except JobExecutionError as e:
        print(str(e), file=sys.stderr)
        return 1
    except Exception:
        traceback.print_exc()
        return 1
    finally:
        entry.settle_session_start()
        sys.stdout.flush()
    return 0


def _serve(args) -> int:
    from pyflink_on_spark.spark import entry
    if args.stop:
        url = entry.stop_served()
        print("pyflink-on-spark: stopped the Spark Connect server at %s" % url if url else
              "pyflink-on-spark: no Spark Connect server started by `serve` is running")
        return 0
    if args.status:
        url = entry.served_url()
        if url:
            print(url)
            return 0
        unauthenticated = entry.unauthenticated_served()
        if unauthenticated:
            print("pyflink-on-spark: %s" % unauthenticated, file=sys.stderr)
        else:
            print("not running")
        return 1
    conf = _parse_conf(args.conf)
    if conf is None:
        return 2
    try:
        server = entry.start_served(port=args.port, master=args.master, conf=conf,
                                    verbose=args.verbose, host=args.host)
    except (entry.JavaNotFoundError, entry.ConnectServerError) as e:
        print("pyflink-on-spark: %s" % e, file=sys.stderr)
        return 3
    print("pyflink-on-spark: Spark Connect server %s at %s, listening on %s (log: %s); "
          "`pyflink-on-spark run` uses it until `pyflink-on-spark serve --stop`"
          % ("started" if server.started else "already running", server.url, server.host,
             server.log))
    if not server.loopback_only:
        print("pyflink-on-spark serve: warning: the server listens on %s, so other machines "
              "can reach it. It requires the token in %s (readable by you only). pyspark's "
              "client sends a token to a host other than localhost only over TLS, which the "
              "server does not speak: clients on other machines need a TLS proxy in front of "
              "it (sc://PROXY:PORT/;use_ssl=true;token=TOKEN)." % (server.host,
                                                                  server.state_file),
              file=sys.stderr)
    if not server.answers_localhost:
        print("pyflink-on-spark serve: warning: `pyflink-on-spark run` on this machine "
              "connects to localhost, where a server listening on %s alone does not answer; "
              "`--host 0.0.0.0` listens on every interface, the loopback too." % server.host,
              file=sys.stderr)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pyflink-on-spark",
        description="Run unmodified PyFlink DataStream programs on Apache Spark.")
    from pyflink_on_spark import __version__
    parser.add_argument("--version", action="version",
                        version="pyflink-on-spark %s (PyFlink 1.20 DataStream API)" % __version__)
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run a PyFlink job script on Spark")
    run.add_argument("--master", help="Spark master URL (default: local[*,4]: all cores, a failed task retried up to 4 times)")
    run.add_argument("--conf", action="append", metavar="KEY=VALUE",
                     help="a Spark configuration property (repeatable)")
    run.add_argument("--verbose", action="store_true", help="show Spark's own logs")
    run.add_argument("--remote", metavar="sc://HOST:PORT",
                     help="run on this Spark Connect server (default: $SPARK_REMOTE, else a "
                          "Spark started in this process)")
    run.add_argument("--quiet", action="store_true",
                     help="no progress line (shown on a terminal for jobs running over 3 s)")
    run.add_argument("--ui", action="store_true",
                     help="turn the Spark UI on (off by default: faster) and print its address")
    run.add_argument("-s", "--from-savepoint", metavar="PATH",
                     help="start the (unbounded) job from this savepoint, into an empty "
                          "checkpoint directory (Flink: flink run -s)")
    run.add_argument("-n", "--allow-non-restored-state", action="store_true",
                     help="with --from-savepoint: drop savepoint state that no operator of "
                          "the job claims instead of failing (Flink: flink run -n)")
    run.add_argument("--savepoint-at-end", metavar="DIR",
                     help="a job over bounded sources (files, bounded Kafka): run it as the "
                          "first micro-batch of its unbounded self and end in a savepoint "
                          "in DIR, for the live job to start from (docs/operations.md)")
    run.add_argument("script", nargs="?",
                     help="the job script (its imports may say pyflink...)")
    run.add_argument("args", nargs=argparse.REMAINDER, help="arguments for the script")
    run.set_defaults(handler=_run)
    serve = sub.add_parser("serve", help="keep a local Spark (a Spark Connect server) running "
                                         "in the background: later runs start in a moment")
    serve.add_argument("--stop", action="store_true", help="stop the server")
    serve.add_argument("--status", action="store_true",
                       help="print the server's URL, without its token (exit 1 if none "
                            "is running)")
    serve.add_argument("--port", type=int, help="its port (default: a free one)")
    serve.add_argument("--host", metavar="ADDRESS",
                       help="the address it listens on (default: 127.0.0.1, this machine "
                            "only; clients on other machines need a TLS proxy in front of "
                            "it, as pyspark sends its token only over TLS)")
    serve.add_argument("--master", help="its Spark master (default: local[*,4])")
    serve.add_argument("--conf", action="append", metavar="KEY=VALUE",
                       help="a Spark configuration property of the server (repeatable)")
    serve.add_argument("--verbose", action="store_true", help="Spark's warnings in its log")
    serve.set_defaults(handler=_serve)
    from pyflink_on_spark.cli.job_commands import add_arguments as add_job_commands
    add_job_commands(sub)
    plan = sub.add_parser("plan", help="draw a job's DataStream graph and its Spark stages "
                                       "(without running it)")
    from pyflink_on_spark.cli.plan.command import add_arguments as add_plan_arguments
    from pyflink_on_spark.cli.plan.command import run_plan
    add_plan_arguments(plan)
    plan.set_defaults(handler=run_plan)
    migrate = sub.add_parser("migrate", help="analyse PyFlink code: what runs on Spark, what to change")
    from pyflink_on_spark.migrate.cli import add_arguments, run_migrate
    add_arguments(migrate)
    migrate.set_defaults(handler=run_migrate)
    compat = sub.add_parser("compat", help="run compatibility cases", add_help=False)
    compat.set_defaults(handler=None)
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "compat":
        from pyflink_on_spark.compat.cli import compat_main
        return compat_main(argv[1:])
    args = build_parser().parse_args(argv)
    return args.handler(args)


def run_cli() -> int:
    """The `pyflink-on-spark` command, a process of its own: main(), then the local Spark it
    started ends before the process does (spark/session.py end_owned_session). main() called
    from Python (tests, notebooks) leaves the session running."""
    try:
        return main()
    finally:
        if "pyflink_on_spark.spark.session" in sys.modules:   # else no Spark was started
            from pyflink_on_spark.spark import entry
            entry.end_session()
        _quick_interpreter_exit()


def _quick_interpreter_exit() -> None:
    """Lets the interpreter's exit skip its collections of cyclic garbage over everything
    pyspark, pyarrow and pandas loaded (gc.freeze): 0.15 s of a command's 0.6-0.8 s that
    only imports them, measured on the 2-core machine. What the last collection would still
    have done that matters, writing what files the script left open in reference cycles
    buffer, is done here first (the script's globals are still alive: script_runner keeps
    them); files not in a cycle are closed, as always, when the interpreter clears its
    modules. (Finalizers of other objects in cycles at exit do not run, which Python does
    not promise either.)"""
    import gc
    import io
    for obj in gc.get_objects():
        if isinstance(obj, io.IOBase):
            try:
                if not obj.closed and obj.writable():
                    obj.flush()
            except Exception:   # noqa: BLE001 - a broken file is the script's to report
                pass
    gc.freeze()


if __name__ == "__main__":
    sys.exit(run_cli())
