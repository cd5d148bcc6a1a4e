"""`pyflink-on-spark list / cancel / savepoint / stop`: Flink's CLI verbs for the unbounded
jobs this user runs on this machine (spark/streaming/job_control.py)."""
from __future__ import annotations

import argparse
import sys
import time


def add_arguments(sub) -> None:
    listing = sub.add_parser("list", help="list the running unbounded jobs (Flink: flink list)")
    listing.set_defaults(handler=_list)
    cancel = sub.add_parser("cancel", help="cancel a running job after its current micro-batch "
                                           "(Flink: flink cancel JOB)")
    cancel.add_argument("job", help="the job id (a prefix is enough) or the job's name")
    cancel.set_defaults(handler=_cancel)
    savepoint = sub.add_parser("savepoint", help="take a savepoint of a running job "
                                                 "(Flink: flink savepoint JOB [DIR])")
    savepoint.add_argument("job", help="the job id (a prefix is enough) or the job's name")
    savepoint.add_argument("directory", nargs="?",
                           help="the target directory (default: the job's default savepoint "
                                "directory)")
    savepoint.set_defaults(handler=_savepoint)
    stop = sub.add_parser("stop", help="take a savepoint, then stop the job "
                                       "(Flink: flink stop [--drain] --savepointPath DIR JOB)")
    stop.add_argument("job", help="the job id (a prefix is enough) or the job's name")
    stop.add_argument("-p", "--savepoint", "--savepointPath", dest="directory", metavar="DIR",
                      help="the target directory (default: the job's default savepoint "
                           "directory)")
    stop.add_argument("-d", "--drain", action="store_true",
                      help="send MAX_WATERMARK before taking the savepoint and stopping: one "
                           "more micro-batch fires every event-time timer and window")
    stop.set_defaults(handler=_stop)


def _list(args: argparse.Namespace) -> int:
    from pyflink_on_spark.spark.entry import running_jobs
    jobs = running_jobs()
    if not jobs:
        print("No running jobs.")
        return 0
    print("------------------ Running/Restarting Jobs -------------------")
    for job in jobs:
        started = time.strftime("%d.%m.%Y %H:%M:%S", time.localtime(job.started_ms / 1000))
        print("%s : %s : %s (RUNNING, pid %d, checkpoints in %s)"
              % (started, job.job_id, job.name, job.pid, job.checkpoint_dir))
    print("--------------------------------------------------------------")
    return 0


def _ask(args: argparse.Namespace, verb: str, **fields):
    from pyflink_on_spark.spark.entry import ask_running_job, find_running_job
    try:
        job = find_running_job(args.job)
    except LookupError as e:
        print("pyflink-on-spark %s: %s" % (verb, e), file=sys.stderr)
        return None, None
    try:
        return job, ask_running_job(job, verb, **fields)
    except OSError as e:
        print("pyflink-on-spark %s: job %s (pid %d) did not answer: %s"
              % (verb, job.job_id, job.pid, e), file=sys.stderr)
        return job, None


def _cancel(args: argparse.Namespace) -> int:
    job, answer = _ask(args, "cancel")
    if not answer or not answer.get("ok"):
        return 1
    print("Cancelled job %s (it stops after its current micro-batch)." % job.job_id)
    return 0


def _took(verb: str, job, answer) -> int:
    if answer is None:
        return 1
    if not answer.get("ok"):
        print("pyflink-on-spark %s: %s" % (verb, answer.get("error")), file=sys.stderr)
        return 1
    print("Savepoint completed. Path: %s" % answer["path"])
    return 0


def _savepoint(args: argparse.Namespace) -> int:
    print("Triggering savepoint for job %s." % args.job)
    job, answer = _ask(args, "savepoint", target=args.directory)
    return _took("savepoint", job, answer)


def _stop(args: argparse.Namespace) -> int:
    print("Suspending job %s." % args.job)
    job, answer = _ask(args, "stop", target=args.directory, drain=args.drain)
    return _took("stop", job, answer)
