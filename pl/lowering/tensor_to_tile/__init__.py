"""ConvertTensorToTileOps: entry point `rewrite.convert_tensor_to_tile_ops`."""
