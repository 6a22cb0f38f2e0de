"""Run a test body in several threads at once."""

import threading


def run_in_threads(work, count):
    """Call ``work(n)`` for n in range(count), all released together; return what they raised."""
    errors = []
    start = threading.Barrier(count)

    def guarded(worker):
        try:
            start.wait()
            work(worker)
        except BaseException as error:  # reported to the caller
            errors.append(error)

    threads = [threading.Thread(target=guarded, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return errors
