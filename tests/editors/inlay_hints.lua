-- pl's inlay hints in Neovim 0.7 to 0.9, which ask for none and show none themselves (0.10's
-- vim.lsp.inlay_hint does both). Sourced (`:luafile inlay_hints.lua`, or dofile() from init.lua),
-- it starts `python -m pl.lsp` for Python buffers (PL_LSP_PYTHON: the Python to run it with,
-- default python3), asks the server for textDocument/inlayHint when a buffer attaches and after
-- each change, and shows each line's hints at the end of that line, as virtual text (before 0.10
-- there is no inline virtual text, so a type names the tile it follows: `s: Tile[...]`).
-- tests/test_lsp.py runs it in `nvim --headless`; tests/editors/nvim_screen.py drew
-- docs/lsp_hints.png from a Neovim running it.
local ns = vim.api.nvim_create_namespace("pl_inlay_hints")
local function colour() vim.api.nvim_set_hl(0, "PlInlayHint", { fg = "#8fa3b3", italic = true }) end
colour()
vim.api.nvim_create_autocmd("ColorScheme", { callback = colour }) -- (a colorscheme clears it)

local function label_of(bufnr, hint)
  local label = hint.label
  if type(label) ~= "string" then -- InlayHintLabelPart[]
    label = table.concat(vim.tbl_map(function(part) return part.value end, label))
  end
  if label:sub(1, 1) == ":" then -- a type after a name: at the line's end, say whose
    local text = vim.api.nvim_buf_get_lines(bufnr, hint.position.line, hint.position.line + 1, false)[1] or ""
    label = (text:sub(1, hint.position.character):match("[%w_]+$") or "") .. label
  end
  return vim.trim(label)
end

local function show(bufnr, hints)
  vim.api.nvim_buf_clear_namespace(bufnr, ns, 0, -1)
  table.sort(hints, function(a, b)
    if a.position.line ~= b.position.line then return a.position.line < b.position.line end
    return a.position.character < b.position.character
  end)
  local lines = {}
  for _, hint in ipairs(hints) do
    local line = hint.position.line
    lines[line] = lines[line] or {}
    table.insert(lines[line], label_of(bufnr, hint))
  end
  for line, labels in pairs(lines) do
    vim.api.nvim_buf_set_extmark(bufnr, ns, line, 0, {
      virt_text = { { "  " .. table.concat(labels, "   "), "PlInlayHint" } },
      virt_text_pos = "eol",
    })
  end
  vim.b[bufnr].pl_inlay_hints = #hints
end

local function refresh(client, bufnr)
  local params = {
    textDocument = vim.lsp.util.make_text_document_params(bufnr),
    range = { start = { line = 0, character = 0 },
              ["end"] = { line = vim.api.nvim_buf_line_count(bufnr), character = 0 } },
  }
  client.request("textDocument/inlayHint", params, function(err, result)
    if err == nil and vim.api.nvim_buf_is_valid(bufnr) then show(bufnr, result or {}) end
  end, bufnr)
end

local client_id = nil
vim.api.nvim_create_autocmd("FileType", { pattern = "python", callback = function(ev)
  if client_id == nil then
    client_id = vim.lsp.start_client({
      name = "pl",
      cmd = { vim.env.PL_LSP_PYTHON or "python3", "-m", "pl.lsp" },
      root_dir = vim.fn.getcwd(),
      on_attach = function(client, bufnr)
        refresh(client, bufnr)
        vim.api.nvim_create_autocmd({ "TextChanged", "InsertLeave" }, { buffer = bufnr, callback = function()
          -- after the client has sent the change (it debounces it by 150 ms)
          vim.defer_fn(function() refresh(client, bufnr) end, 300)
        end })
      end,
    })
  end
  vim.lsp.buf_attach_client(ev.buf, client_id)
end })
