-- Run by tests/test_lsp.py: `nvim --headless --clean --cmd "luafile tests/editors/inlay_hints.lua"
-- -c "luafile tests/editors/nvim_virtual_text.lua" FILE` with PL_LSP_PYTHON and PL_LSP_OUT set.
-- Waits until inlay_hints.lua has shown FILE's hints, and writes the virtual text it shows, one
-- `line:text` a line (0-based lines; or `error: ...`).
local shown = vim.wait(60000, function() return vim.b.pl_inlay_hints ~= nil end, 50)
local out = {}
if not shown then out = { "error: no hints were shown" } end
local ns = vim.api.nvim_create_namespace("pl_inlay_hints")
for _, mark in ipairs(vim.api.nvim_buf_get_extmarks(0, ns, 0, -1, { details = true })) do
  local text = ""
  for _, chunk in ipairs(mark[4].virt_text or {}) do text = text .. chunk[1] end
  table.insert(out, mark[2] .. ":" .. text)
end
vim.fn.writefile(out, vim.env.PL_LSP_OUT)
vim.cmd("qa!")
