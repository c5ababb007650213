import pl
import nonexistent_module_xyz  # error: nonexistent_module_xyz
