-- Run by tests/test_lsp.py: `nvim --headless --clean -c "luafile tests/editors/nvim_hints.lua"`
-- with PL_LSP_PYTHON, PL_LSP_ROOT, PL_LSP_FILE and PL_LSP_OUT set. Neovim's built-in client
-- (0.7, Debian's package) starts `python -m pl.lsp`, opens the file, asks for its inlay hints and
-- writes them to PL_LSP_OUT, one `line:character:label` a line (or `error: ...`).
local function finish(lines)
  vim.fn.writefile(lines, vim.env.PL_LSP_OUT)
  vim.cmd("qa!")
end
vim.cmd("edit " .. vim.fn.fnameescape(vim.env.PL_LSP_FILE))
local id = vim.lsp.start_client({
  name = "pl",
  cmd = { vim.env.PL_LSP_PYTHON, "-m", "pl.lsp" },
  cmd_cwd = vim.env.PL_LSP_ROOT,
  root_dir = vim.env.PL_LSP_ROOT,
})
if not id then finish({ "error: the client did not start" }) return end
vim.lsp.buf_attach_client(0, id)
local ready = vim.wait(30000, function()
  local c = vim.lsp.get_client_by_id(id)
  return c ~= nil and c.server_capabilities ~= nil and c.server_capabilities.inlayHintProvider ~= nil
end, 50)
if not ready then finish({ "error: the server did not initialize" }) return end
local params = {
  textDocument = vim.lsp.util.make_text_document_params(),
  range = { start = { line = 0, character = 0 },
            ["end"] = { line = vim.api.nvim_buf_line_count(0), character = 0 } },
}
local res, err = vim.lsp.buf_request_sync(0, "textDocument/inlayHint", params, 30000)
if not res then finish({ "error: " .. tostring(err) }) return end
local out = {}
for _, r in pairs(res) do
  if r.err then table.insert(out, "error: " .. vim.inspect(r.err)) end
  for _, h in ipairs(r.result or {}) do
    table.insert(out, h.position.line .. ":" .. h.position.character .. ":" .. h.label)
  end
end
finish(out)
