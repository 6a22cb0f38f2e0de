"""
The benchmark suite behind ``python -m records`` (quick) and
``python -m records --full``. Imported only by those commands, never by
``import records``.
"""
