"""`import pl.distributed as pld`: the distributed module (the reference's
`pypto.language.distributed`), defined in pl/language/distributed.py."""

from pl.language.distributed import *  # noqa: F403
from pl.language.distributed import __all__ as __all__
