"""SSA conversion (the reference's ConvertToSSA pass): entry point `convert.convert_to_ssa`."""
