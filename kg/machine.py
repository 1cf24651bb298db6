"""What the machine offers this process: its cores and its free memory (the build sizes its
worker pool by them, validation its threads)."""

from __future__ import annotations

import os


def available_cores() -> int:
    """The cores this process may run on: its CPU affinity (taskset, cpusets), lowered by a
    cgroup's CPU quota (a container's ``--cpus``) where there is one."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    try:
        with open("/sys/fs/cgroup/cpu.max", encoding="ascii") as limit:
            quota, period = limit.read().split()[:2]
        if quota != "max":
            cores = min(cores, max(1, round(int(quota) / int(period))))
    except (OSError, ValueError):
        pass
    return max(1, cores)


def available_memory() -> int | None:
    """Bytes the kernel reckons can be allocated without swapping (Linux's MemAvailable), or None."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    return None
