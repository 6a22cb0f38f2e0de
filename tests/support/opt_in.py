"""Whether this interpreter has the opt-in's start-up hook (``RECORDS_NAMEDTUPLE``)."""

import site
from pathlib import Path


def pth_installed() -> bool:
    """Whether ``records_namedtuple.pth``, which an install of records adds, is in site-packages."""
    directories = [*site.getsitepackages(), site.getusersitepackages()]
    return any((Path(d) / "records_namedtuple.pth").is_file() for d in directories)
