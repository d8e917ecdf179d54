package tools

import "github.com/tmux-mcp/tmux-mcp/handlers"

// Catalogue is every tool this server offers, grouped by family for
// readers. (tools/list itself is sorted by name: the SDK keeps a set.)
var Catalogue = []Tool{
	// Finding your way: sessions, windows, panes.
	{
		Name:  "list_sessions",
		Title: "List tmux sessions",
		Description: "List sessions with their ids ($N), names, window counts and sizes. An empty list means no tmux " +
			"server runs yet: create_session starts one.",
		Class:   ReadOnly,
		World:   Closed,
		Toolset: Default,
		bind:    bind((*handlers.Handlers).ListSessions),
		Example: `{}`,
	},
	{
		Name:  "list_windows",
		Title: "List tmux windows",
		Description: "List the windows (@N) of one session (sessionId, or exact sessionName) or of all, with index, " +
			"name, size, pane count and layout.",
		Class:   ReadOnly,
		World:   Closed,
		Toolset: Inspect,
		bind:    bind((*handlers.Handlers).ListWindows),
		Example: `{"sessionId":"$0"}`,
	},
	{
		Name:  "list_panes",
		Title: "List tmux panes",
		Description: "List the panes (%N) of a window, a session or the server, with position, size, title, command, " +
			"pid, cwd, exit status once ended, and which is this server's own. To find panes by their text, " +
			"use search_panes.",
		Class:   ReadOnly,
		World:   Closed,
		Toolset: Default,
		bind:    bind((*handlers.Handlers).ListPanes),
		Example: `{"windowId":"@0"}`,
	},

	// Inspecting: one server, session, window or pane in detail; searching.
	{
		Name:  "get_server_info",
		Title: "Describe the tmux server",
		Description: "Describe the tmux server: version, socket, pid, how many sessions, windows and panes, this " +
			"server's own pane, the features this tmux version has, and whether commands reach it natively or through a tmux child.",
		Class:   ReadOnly,
		World:   Closed,
		Toolset: Inspect,
		bind:    bind((*handlers.Handlers).GetServerInfo),
		Example: `{}`,
	},
	{
		Name:  "get_session_info",
		Title: "Describe a tmux session",
		Description: "Describe one session: name, creation time, size, current window, and each window with its index, " +
			"name, pane count and size.",
		Class:   ReadOnly,
		World:   Closed,
		Toolset: Inspect,
		bind:    bind((*handlers.Handlers).GetSessionInfo),
		Example: `{"sessionId":"$0"}`,
	},
	{
		Name:  "get_window_info",
		Title: "Describe a tmux window",
		Description: "Describe one window: size, layout string, zoom, active pane, and each pane with its position, " +
			"size, command and whether it is dead.",
		Class:   ReadOnly,
		World:   Closed,
		Toolset: Inspect,
		bind:    bind((*handlers.Handlers).GetWindowInfo),
		Example: `{"windowId":"@0"}`,
	},
	{
		Name:  "get_pane_info",
		Title: "Describe a tmux pane",
		Description: "Describe one pane without its text: pid, command, cwd, title, size, position, cursor, alternate " +
			"screen, copy mode, scrollback used and, once its program ended, its exit status. For the text, " +
			"use capture_pane.",
		Class:   ReadOnly,
		World:   Closed,
		Toolset: Inspect,
		bind:    bind((*handlers.Handlers).GetPaneInfo),
		Example: `{"paneId":"%0"}`,
	},
	{
		Name:  "snapshot_pane",
		Title: "Snapshot a pane",
		Description: "Return what a pane shows with its cursor, size and mode, read at one moment: the way to look at " +
			"an editor or another full-screen program. For scrollback, use capture_pane.",
		Class:   ReadOnly,
		World:   Closed,
		Toolset: Default,
		bind:    bind((*handlers.Handlers).SnapshotPane),
		Example: `{"paneId":"%0","maxLines":3}`,
	},
	{
		Name:  "find_pane_by_position",
		Title: "Find a pane by position",
		Description: "Find the panes beside a pane (paneId and side: a border or a corner), or the pane covering a " +
			"cell (windowId, x, y), with their ids, positions and sizes. An empty list means the window's " +
			"edge.",
		Class:   ReadOnly,
		World:   Closed,
		Toolset: Inspect,
		bind:    bind((*handlers.Handlers).FindPaneByPosition),
		Example: `{"paneId":"%0","side":"right"}`,
	},
	{
		Name:  "search_panes",
		Title: "Search pane text",
		Description: "Find the lines holding a pattern on the screens (with scrollback:true, the scrollback too) of " +
			"many panes at once. Each hit is a pane id, a row as capture_pane numbers them, and the line; " +
			"stoppedBy names a limit that ended the search early.",
		Class:   ReadOnly,
		World:   Closed,
		Toolset: Default,
		bind:    bind((*handlers.Handlers).SearchPanes),
		Example: `{"pattern":"x","maxPanes":3}`,
	},
	{
		Name:  "call_read_tools_batch",
		Title: "Call several read-only tools at once",
		Description: "Run several read-only tools (get_pane_info, capture_pane, list_panes…) in one call, in order, " +
			"and return a row per call: ok with the tool's result, or its error. One failing call does not " +
			"stop the rest.",
		Class:   ReadOnly,
		World:   Closed,
		Toolset: Inspect,
		bind:    bind((*handlers.Handlers).CallReadToolsBatch),
		Example: `{"calls":[{"tool":"get_server_info"},{"tool":"get_pane_info","arguments":{"paneId":"%0"}}]}`,
	},

	// Making and removing panes.
	{
		Name:  "create_session",
		Title: "Create a tmux session",
		Description: "Start a detached session and return its session, window and pane ids and a cursor from before " +
			"the first output, for wait_for_text or capture_since. It runs the user's shell, or argv without " +
			"a shell; a program that cannot start is an error and leaves nothing behind.",
		Class:   Mutating,
		World:   Open,
		Toolset: Default,
		bind:    bind((*handlers.Handlers).CreateSession),
		Example: `{"name":"s","argv":["cat"],"width":80,"height":24}`,
	},
	{
		Name:  "create_window",
		Title: "Create a tmux window",
		Description: "Add a window to a session and return its window and pane ids and a cursor from before the first " +
			"output. It runs the user's shell, or argv without a shell; a program that cannot start is an " +
			"error and leaves nothing behind. It becomes current only with select.",
		Class:   Mutating,
		World:   Open,
		Toolset: Default,
		bind:    bind((*handlers.Handlers).CreateWindow),
		Example: `{"sessionId":"$0","name":"w","argv":["cat"]}`,
	},
	{
		Name:  "split_window",
		Title: "Split a tmux pane",
		Description: "Split a pane (the new one below, right, above or left) and return its id, pid and a cursor from " +
			"before its first output. It runs the user's shell, or argv without a shell; a program that " +
			"cannot start is an error and leaves nothing behind.",
		Class:   Mutating,
		World:   Open,
		Toolset: Default,
		bind:    bind((*handlers.Handlers).SplitWindow),
		Example: `{"paneId":"%0","direction":"left","argv":["cat"]}`,
	},
	{
		Name:  "kill_pane",
		Title: "Kill a tmux pane",
		Description: "Close a pane and end its program (tmux sends SIGHUP); a window closes with its last pane, which " +
			"the result says. To wait for a program to end by itself, use wait_for_exit.",
		Class:   Destructive,
		World:   Closed,
		Toolset: Default,
		bind:    bind((*handlers.Handlers).KillPane),
		Example: `{"paneId":"%1"}`,
	},
	{
		Name:  "kill_window",
		Title: "Kill a tmux window",
		Description: "Close a window and every pane in it; returns the pane ids that closed and whether the session " +
			"ended with it.",
		Class:   Destructive,
		World:   Closed,
		Toolset: Default,
		bind:    bind((*handlers.Handlers).KillWindow),
		Example: `{"windowId":"@1"}`,
	},
	{
		Name:  "kill_session",
		Title: "Kill a tmux session",
		Description: "End a session with all its windows and panes; returns the pane ids that closed. Killing the last " +
			"session stops the tmux server.",
		Class:   Destructive,
		World:   Closed,
		Toolset: Default,
		bind:    bind((*handlers.Handlers).KillSession),
		Example: `{"sessionId":"$1"}`,
	},

	// Arranging: selecting, laying out, resizing, moving, naming, and
	// restarting or clearing panes in place.
	{
		Name:  "select_window",
		Title: "Select a tmux window",
		Description: "Make a window its session's current window, the one a person attached to the session sees. " +
			"Nothing is typed, resized or moved.",
		Class:   Idempotent,
		World:   Closed,
		Toolset: Arrange,
		bind:    bind((*handlers.Handlers).SelectWindow),
		Example: `{"windowId":"@1"}`,
	},
	{
		Name:  "select_pane",
		Title: "Select a tmux pane",
		Description: "Make a pane its window's active pane, the one a person's keys go to. It does not make the window " +
			"current: use select_window.",
		Class:   Idempotent,
		World:   Closed,
		Toolset: Arrange,
		bind:    bind((*handlers.Handlers).SelectPane),
		Example: `{"paneId":"%1"}`,
	},
	{
		Name:  "select_layout",
		Title: "Lay out a tmux window",
		Description: "Arrange a window's panes by a preset (tiled, even-horizontal…) or by a layout string from " +
			"list_windows, and return the layout string now in force.",
		Class:   Idempotent,
		World:   Closed,
		Toolset: Arrange,
		bind:    bind((*handlers.Handlers).SelectLayout),
		Example: `{"windowId":"@0","layout":"tiled"}`,
	},
	{
		Name:  "resize_pane",
		Title: "Resize or zoom a tmux pane",
		Description: "Resize a pane to a width and height in cells, by moving a border (direction, amount), or to a " +
			"zoom state (zoomed). The window keeps its size, so tmux may grant less: the result has the size " +
			"reached. resize_window resizes the window.",
		Class:   Mutating,
		World:   Closed,
		Toolset: Arrange,
		bind:    bind((*handlers.Handlers).ResizePane),
		Example: `{"paneId":"%0","width":30}`,
	},
	{
		Name:  "resize_window",
		Title: "Resize a tmux window",
		Description: "Set a window's size in cells, which its panes share; tmux keeps the window at that size until it " +
			"is resized again.",
		Class:   Idempotent,
		World:   Closed,
		Toolset: Arrange,
		bind:    bind((*handlers.Handlers).ResizeWindow),
		Example: `{"windowId":"@0","width":100,"height":30}`,
	},
	{
		Name:  "swap_pane",
		Title: "Swap two tmux panes",
		Description: "Trade the places of two panes, in one window or across two: each takes the other's position and " +
			"size, and their programs keep running.",
		Class:   Mutating,
		World:   Closed,
		Toolset: Arrange,
		bind:    bind((*handlers.Handlers).SwapPane),
		Example: `{"paneId":"%0","targetPaneId":"%1"}`,
	},
	{
		Name:  "move_window",
		Title: "Move a tmux window",
		Description: "Move a window with its panes to another session, or to another index in its own. A session left " +
			"without windows ends, which the result says.",
		Class:   Mutating,
		World:   Closed,
		Toolset: Arrange,
		bind:    bind((*handlers.Handlers).MoveWindow),
		Example: `{"windowId":"@1","sessionId":"$1"}`,
	},
	{
		Name:  "join_pane",
		Title: "Move a pane into another window",
		Description: "Move a pane with its program into targetPaneId's window by splitting that pane. A window left " +
			"without panes closes, which the result says.",
		Class:   Mutating,
		World:   Closed,
		Toolset: Arrange,
		bind:    bind((*handlers.Handlers).JoinPane),
		Example: `{"paneId":"%2","targetPaneId":"%0"}`,
	},
	{
		Name:  "break_pane",
		Title: "Move a pane to a new window",
		Description: "Move a pane out of its window into a new window of the same session, its program still running; " +
			"returns the new window's id and index.",
		Class:   Mutating,
		World:   Closed,
		Toolset: Arrange,
		bind:    bind((*handlers.Handlers).BreakPane),
		Example: `{"paneId":"%1","name":"out"}`,
	},
	{
		Name:  "rename_session",
		Title: "Rename a tmux session",
		Description: "Rename a session. The name is stored literally, never expanded as a format; returns the name as " +
			"tmux stores it.",
		Class:   Idempotent,
		World:   Closed,
		Toolset: Arrange,
		bind:    bind((*handlers.Handlers).RenameSession),
		Example: `{"sessionId":"$1","name":"work"}`,
	},
	{
		Name:  "rename_window",
		Title: "Rename a tmux window",
		Description: "Rename a window (tmux then stops naming it after its program). The name is stored literally, " +
			"never expanded as a format; returns the name as tmux stores it.",
		Class:   Idempotent,
		World:   Closed,
		Toolset: Arrange,
		bind:    bind((*handlers.Handlers).RenameWindow),
		Example: `{"windowId":"@0","name":"editor"}`,
	},
	{
		Name:  "set_pane_title",
		Title: "Set a pane's title",
		Description: "Set a pane's title, stored literally and never expanded; the program in the pane may set its own " +
			"later. Returns the title as tmux stores it.",
		Class:   Idempotent,
		World:   Closed,
		Toolset: Arrange,
		bind:    bind((*handlers.Handlers).SetPaneTitle),
		Example: `{"paneId":"%0","title":"build"}`,
	},
	{
		Name:  "respawn_pane",
		Title: "Restart a pane's program",
		Description: "End the program in a pane (SIGHUP) and start another in the same pane, which keeps its id, place " +
			"and scrollback: argv without a shell, or the default shell. Returns the new pid.",
		Class:   Destructive,
		World:   Open,
		Toolset: Arrange,
		bind:    bind((*handlers.Handlers).RespawnPane),
		Example: `{"paneId":"%1","argv":["cat"],"force":true}`,
	},
	{
		Name:  "clear_pane",
		Title: "Clear a pane",
		Description: "Clear a pane's screen into its scrollback, as a terminal reset does; history:true also deletes " +
			"the scrollback. The program is not told. Returns the scrollback lines left.",
		Class:   Destructive,
		World:   Closed,
		Toolset: Arrange,
		bind:    bind((*handlers.Handlers).ClearPane),
		Example: `{"paneId":"%0","history":true}`,
	},

	// Typing and reading.
	{
		Name:  "send_keys",
		Title: "Send keys to a pane",
		Description: "Type into a pane: text (then Enter), one key such as C-c (sent alone), or a sequence of text and " +
			"key items. Returns a cursor from before the first key, for wait_for_text or capture_since. To " +
			"run a command and get its output, use run_shell_command; for long text, paste_text.",
		Class:   Mutating,
		World:   Open,
		Toolset: Default,
		bind:    bind((*handlers.Handlers).SendKeys),
		Example: `{"paneId":"%0","keys":"hello"}`,
	},
	{
		Name:  "capture_pane",
		Title: "Capture pane text",
		Description: "Return what a pane shows as plain text, or rows of its scrollback (start and end: 0 is the top " +
			"of the screen, negative rows are history), the newest lines kept. Full-screen programs read " +
			"correctly. For only what is new, use capture_since.",
		Class:   ReadOnly,
		World:   Closed,
		Toolset: Default,
		bind:    bind((*handlers.Handlers).CapturePane),
		Example: `{"paneId":"%0","maxLines":5}`,
	},

	// Watching output as it streams.
	{
		Name:  "capture_since",
		Title: "Read pane output since a cursor",
		Description: "Return what a pane printed since a cursor, and a new cursor. Without one it starts watching and " +
			"returns the screen. Cursors from actions (send_keys, start_program…) work too; waitMs waits for " +
			"output. The way to follow a build or a log; for programs that redraw the screen, use " +
			"capture_pane.",
		Class:   ReadOnly,
		World:   Closed,
		Toolset: Default,
		bind:    bind((*handlers.Handlers).CaptureSince),
		Example: `{"paneId":"%0"}`,
	},
	{
		Name:  "wait_for_text",
		Title: "Wait for text in a pane",
		Description: "Wait until a pane prints one of patterns (literal, or RE2 with regex) and return outcome, the " +
			"output and a cursor to go on from. Only output after the wait begins counts, or after cursor: " +
			"pass the cursor an action returned. For a command you run, run_shell_command knows when it ends.",
		Class:   ReadOnly,
		World:   Closed,
		Toolset: Default,
		bind:    bind((*handlers.Handlers).WaitForText),
		Example: `{"paneId":"%0","patterns":["ready"],"timeoutMs":300}`,
	},

	{
		Name:  "wait_for_quiet",
		Title: "Wait for a pane to go quiet",
		Description: "Wait until a pane has printed nothing for quietMs: for full-screen programs, progress bars and " +
			"installers with no last line to wait for. Returns outcome, the output meanwhile, the screen at " +
			"the end and a cursor.",
		Class:   ReadOnly,
		World:   Closed,
		Toolset: Default,
		bind:    bind((*handlers.Handlers).WaitForQuiet),
		Example: `{"paneId":"%0","quietMs":50,"timeoutMs":2000}`,
	},

	{
		Name:  "wait_for_input",
		Title: "Wait for a program to ask for input",
		Description: "Wait until the program in a pane waits for input (a question, password, REPL or shell " +
			"prompt, a key in a TUI) or exits. Use it when you cannot know what it will " +
			"print; wait_for_text when you can, wait_for_quiet for output to settle. Returns outcome, " +
			"prompt, evidence, last lines.",
		Class:   ReadOnly,
		World:   Closed,
		Toolset: Default,
		bind:    bind((*handlers.Handlers).WaitForInput),
		Example: `{"paneId":"%0","timeoutMs":2000}`,
	},

	// Programs and their exit status.
	{
		Name:  "run_shell_command",
		Title: "Run a command in a pane's shell",
		Description: "Run a command line in a pane's shell as if typed (cd and variables persist) and return outcome, " +
			"exitStatus and exactly what it printed, without echo or prompt. The pane must be at a shell " +
			"prompt. On timed_out or awaiting_input (unless stopForInput:false) it runs on: answer or C-c " +
			"with send_keys, then wait_for_command. Of long output the newest lines are kept; capture_since " +
			"from cutCursor reads the rest.",
		Class:   Mutating,
		World:   Open,
		Toolset: Default,
		bind:    bind((*handlers.Handlers).RunShellCommand),
		Example: `{"paneId":"%2","command":"echo hi"}`,
	},
	{
		Name:  "wait_for_command",
		Title: "Wait for a shell command to end",
		Description: "Wait for a run_shell_command command (commandId, or paneId) or one typed at a prompt-marking shell " +
			"(paneId; next:true: the next) and return its result. timed_out or awaiting_input: it still runs. " +
			"keep:\"head\": a long output's start.",
		Class:   ReadOnly,
		World:   Closed,
		Toolset: Default,
		bind:    bind((*handlers.Handlers).WaitForCommand),
		Example: `{"commandId":"$commandId","timeoutMs":5000}`,
	},
	{
		Name:  "start_program",
		Title: "Start a program in a new pane",
		Description: "Start a program (argv, no shell) in a new pane and return its pane id, pid and a cursor from " +
			"before its first output: follow it with capture_since or wait_for_text, and get its exit status " +
			"with wait_for_exit. To run one to its end, use run_program.",
		Class:   Mutating,
		World:   Open,
		Toolset: Default,
		bind:    bind((*handlers.Handlers).StartProgram),
		Example: `{"argv":["cat"],"splitPaneId":"%0"}`,
	},
	{
		Name:  "run_program",
		Title: "Run a program to completion",
		Description: "Run a program (argv, no shell) in a new pane until it exits and return exitStatus and exactly " +
			"what it printed. On timed_out or awaiting_input (answer with send_keys) it runs on in paneId: " +
			"then wait_for_exit and capture_since. For a shell command line, use run_shell_command.",
		Class:   Mutating,
		World:   Open,
		Toolset: Default,
		bind:    bind((*handlers.Handlers).RunProgram),
		Example: `{"argv":["echo","hi"],"timeoutMs":5000}`,
	},
	{
		Name:  "wait_for_exit",
		Title: "Wait for a pane's program to exit",
		Description: "Wait until the program in a pane ends and return its exit status or signal. timed_out means it " +
			"still runs (call again); gone, that the pane was killed. For a command typed into a shell, use " +
			"run_shell_command.",
		Class:   Idempotent,
		World:   Closed,
		Toolset: Default,
		bind:    bind((*handlers.Handlers).WaitForExit),
		Example: `{"paneId":"%1","timeoutMs":200}`,
	},

	// Synchronising on channels.
	{
		Name:  "wait_for_channel",
		Title: "Wait for a tmux channel",
		Description: "Wait until a tmux wait-for channel is signalled: end a command you send with `; tmux wait-for -S " +
			"<channel>` and wait on the channel. A timeout is an error. For a command's exit status, use " +
			"run_shell_command.",
		Class:   ReadOnly,
		World:   Closed,
		Toolset: Default,
		bind:    bind((*handlers.Handlers).WaitForChannel),
		Example: `{"channel":"ch","timeout":0.2}`,
	},
	{
		Name:  "signal_channel",
		Title: "Signal a tmux channel",
		Description: "Signal a tmux wait-for channel, waking whoever waits on it (wait_for_channel, or a shell in tmux " +
			"wait-for); with nobody waiting, tmux keeps it for the next wait.",
		Class:   Mutating,
		World:   Closed,
		Toolset: Default,
		bind:    bind((*handlers.Handlers).SignalChannel),
		Example: `{"channel":"go"}`,
	},

	// Options, environment and buffers.
	{
		Name:  "show_option",
		Title: "Show tmux options",
		Description: "Read tmux options of the server, a session, a window or a pane (scope, targetId), or the global " +
			"defaults: one (name) or all, with exact values; inherited:true adds what is inherited.",
		Class:   ReadOnly,
		World:   Closed,
		Toolset: Config,
		bind:    bind((*handlers.Handlers).ShowOption),
		Example: `{"scope":"session","targetId":"$0","name":"status","inherited":true}`,
	},
	{
		Name:  "set_option",
		Title: "Set a tmux option",
		Description: "Set or unset one tmux option and return the value read back; values are stored exactly, never " +
			"expanded, and options that run commands are refused. Set only what you were asked to, and unset " +
			"what was temporary.",
		Class:   Idempotent,
		World:   Closed,
		Toolset: Config,
		bind:    bind((*handlers.Handlers).SetOption),
		Example: `{"scope":"session","targetId":"$0","name":"@x","value":"v"}`,
	},
	{
		Name:  "show_environment",
		Title: "Show tmux environment",
		Description: "Read tmux's global environment or a session's, whole or one variable, with exact values. Values " +
			"are often secrets: ask only for what you need.",
		Class:   ReadOnly,
		World:   Closed,
		Toolset: Config,
		bind:    bind((*handlers.Handlers).ShowEnvironment),
		Example: `{"sessionId":"$0"}`,
	},
	{
		Name:  "set_environment",
		Title: "Set a tmux environment variable",
		Description: "Set or unset one variable in tmux's global or a session's environment, for programs started " +
			"afterwards; returns the value read back.",
		Class:   Idempotent,
		World:   Closed,
		Toolset: Config,
		bind:    bind((*handlers.Handlers).SetEnvironment),
		Example: `{"sessionId":"$0","name":"A","value":"b"}`,
	},
	{
		Name:  "show_hooks",
		Title: "Show tmux hooks",
		Description: "List the hooks set on a session, window or pane, or globally: each with its name, index and " +
			"command. It only reads them.",
		Class:   ReadOnly,
		World:   Closed,
		Toolset: Config,
		bind:    bind((*handlers.Handlers).ShowHooks),
		Example: `{"global":true}`,
	},
	{
		Name:  "list_buffers",
		Title: "List tmux paste buffers",
		Description: "List tmux's paste buffers, newest first, with name, size in bytes and creation time. Read one " +
			"with show_buffer.",
		Class:   ReadOnly,
		World:   Closed,
		Toolset: Buffers,
		bind:    bind((*handlers.Handlers).ListBuffers),
		Example: `{}`,
	},
	{
		Name:  "show_buffer",
		Title: "Show a tmux paste buffer",
		Description: "Return a paste buffer's contents, within the server's byte ceiling (omittedBytes says what was " +
			"cut).",
		Class:   ReadOnly,
		World:   Closed,
		Toolset: Buffers,
		bind:    bind((*handlers.Handlers).ShowBuffer),
		Example: `{"name":"b"}`,
	},
	{
		Name:  "load_buffer",
		Title: "Load a tmux paste buffer",
		Description: "Create or replace a paste buffer with text, stored exactly; paste it with paste_buffer. To type " +
			"text into a pane, paste_text does it in one call.",
		Class:   Mutating,
		World:   Closed,
		Toolset: Buffers,
		bind:    bind((*handlers.Handlers).LoadBuffer),
		Example: `{"name":"c","text":"x\ty\n"}`,
	},
	{
		Name:  "paste_buffer",
		Title: "Paste a tmux buffer into a pane",
		Description: "Paste a buffer into a pane, bracketed when the program asked for it; enter:true presses Enter " +
			"after, delete:true removes the buffer. Returns a cursor from before the paste.",
		Class:   Mutating,
		World:   Open,
		Toolset: Buffers,
		bind:    bind((*handlers.Handlers).PasteBuffer),
		Example: `{"paneId":"%0","name":"b"}`,
	},
	{
		Name:  "delete_buffer",
		Title: "Delete a tmux paste buffer",
		Description: "Delete a paste buffer; its text is lost. A name that does not exist is an error naming " +
			"list_buffers.",
		Class:   Destructive,
		World:   Closed,
		Toolset: Buffers,
		bind:    bind((*handlers.Handlers).DeleteBuffer),
		Example: `{"name":"b"}`,
	},
	{
		Name:  "paste_text",
		Title: "Paste text into a pane",
		Description: "Type text into a pane exactly as given, tabs and line breaks included, as one bracketed paste " +
			"when the program asked for it (shells do), so tabs do not complete and lines do not run early. " +
			"enter:true presses Enter after. Returns a cursor from before the paste. For keys such as C-c, " +
			"use send_keys.",
		Class:   Mutating,
		World:   Open,
		Toolset: Default,
		bind:    bind((*handlers.Handlers).PasteText),
		Example: `{"paneId":"%0","text":"x"}`,
	},
}
