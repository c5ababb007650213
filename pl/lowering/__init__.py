"""From kernel source to SSA tile IR: the LibCST frontend, SSA conversion and the pre-passes."""
