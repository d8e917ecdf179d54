// Code generation for tmux-mcp: gen/ is produced from schemas/ by go-jsonschema.
// (Files are named <tool>_<input|output>.gen.go: a dot right after "list_windows"
// would make Go read "_windows" as a GOOS build constraint.)
// Run `go generate ./...` after editing a schema; CI fails when gen/ differs.

package main

//go:generate -command jsonschema go tool go-jsonschema -p gen --struct-name-from-title --tags json --capitalization ID
//go:generate jsonschema --schema-root-type =CapturePaneInput -o gen/capture_pane_input.gen.go schemas/capture_pane.input.json
//go:generate jsonschema --schema-root-type =CapturePaneOutput -o gen/capture_pane_output.gen.go schemas/capture_pane.output.json
//go:generate jsonschema --schema-root-type =CaptureSinceInput -o gen/capture_since_input.gen.go schemas/capture_since.input.json
//go:generate jsonschema --schema-root-type =CaptureSinceOutput -o gen/capture_since_output.gen.go schemas/capture_since.output.json
//go:generate jsonschema --schema-root-type =CreateSessionInput -o gen/create_session_input.gen.go schemas/create_session.input.json
//go:generate jsonschema --schema-root-type =CreateSessionOutput -o gen/create_session_output.gen.go schemas/create_session.output.json
//go:generate jsonschema --schema-root-type =CreateWindowInput -o gen/create_window_input.gen.go schemas/create_window.input.json
//go:generate jsonschema --schema-root-type =CreateWindowOutput -o gen/create_window_output.gen.go schemas/create_window.output.json
//go:generate jsonschema --schema-root-type =KillPaneInput -o gen/kill_pane_input.gen.go schemas/kill_pane.input.json
//go:generate jsonschema --schema-root-type =KillPaneOutput -o gen/kill_pane_output.gen.go schemas/kill_pane.output.json
//go:generate jsonschema --schema-root-type =KillSessionInput -o gen/kill_session_input.gen.go schemas/kill_session.input.json
//go:generate jsonschema --schema-root-type =KillSessionOutput -o gen/kill_session_output.gen.go schemas/kill_session.output.json
//go:generate jsonschema --schema-root-type =KillWindowInput -o gen/kill_window_input.gen.go schemas/kill_window.input.json
//go:generate jsonschema --schema-root-type =KillWindowOutput -o gen/kill_window_output.gen.go schemas/kill_window.output.json
//go:generate jsonschema --schema-root-type =ListPanesInput -o gen/list_panes_input.gen.go schemas/list_panes.input.json
//go:generate jsonschema --schema-root-type =ListPanesOutput -o gen/list_panes_output.gen.go schemas/list_panes.output.json
//go:generate jsonschema --schema-root-type =ListSessionsInput -o gen/list_sessions_input.gen.go schemas/list_sessions.input.json
//go:generate jsonschema --schema-root-type =ListSessionsOutput -o gen/list_sessions_output.gen.go schemas/list_sessions.output.json
//go:generate jsonschema --schema-root-type =ListWindowsInput -o gen/list_windows_input.gen.go schemas/list_windows.input.json
//go:generate jsonschema --schema-root-type =ListWindowsOutput -o gen/list_windows_output.gen.go schemas/list_windows.output.json
//go:generate jsonschema --schema-root-type =SendKeysInput -o gen/send_keys_input.gen.go schemas/send_keys.input.json
//go:generate jsonschema --schema-root-type =SendKeysOutput -o gen/send_keys_output.gen.go schemas/send_keys.output.json
//go:generate jsonschema --schema-root-type =SignalChannelInput -o gen/signal_channel_input.gen.go schemas/signal_channel.input.json
//go:generate jsonschema --schema-root-type =SignalChannelOutput -o gen/signal_channel_output.gen.go schemas/signal_channel.output.json
//go:generate jsonschema --schema-root-type =SplitWindowInput -o gen/split_window_input.gen.go schemas/split_window.input.json
//go:generate jsonschema --schema-root-type =SplitWindowOutput -o gen/split_window_output.gen.go schemas/split_window.output.json
//go:generate jsonschema --schema-root-type =WaitForChannelInput -o gen/wait_for_channel_input.gen.go schemas/wait_for_channel.input.json
//go:generate jsonschema --schema-root-type =WaitForChannelOutput -o gen/wait_for_channel_output.gen.go schemas/wait_for_channel.output.json
//go:generate jsonschema --schema-root-type =WaitForExitInput -o gen/wait_for_exit_input.gen.go schemas/wait_for_exit.input.json
//go:generate jsonschema --schema-root-type =WaitForExitOutput -o gen/wait_for_exit_output.gen.go schemas/wait_for_exit.output.json
//go:generate jsonschema --schema-root-type =WaitForTextInput -o gen/wait_for_text_input.gen.go schemas/wait_for_text.input.json
//go:generate jsonschema --schema-root-type =WaitForTextOutput -o gen/wait_for_text_output.gen.go schemas/wait_for_text.output.json
//go:generate jsonschema --schema-root-type =RunProgramInput -o gen/run_program_input.gen.go schemas/run_program.input.json
//go:generate jsonschema --schema-root-type =RunProgramOutput -o gen/run_program_output.gen.go schemas/run_program.output.json
//go:generate jsonschema --schema-root-type =StartProgramInput -o gen/start_program_input.gen.go schemas/start_program.input.json
//go:generate jsonschema --schema-root-type =StartProgramOutput -o gen/start_program_output.gen.go schemas/start_program.output.json
//go:generate jsonschema --schema-root-type =RunShellCommandInput -o gen/run_shell_command_input.gen.go schemas/run_shell_command.input.json
//go:generate jsonschema --schema-root-type =RunShellCommandOutput -o gen/run_shell_command_output.gen.go schemas/run_shell_command.output.json
