package prompts

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tmux-mcp/tmux-mcp/tmuxctl"
)

// A prompt is one entry: how it presents itself and the text it writes.
type prompt struct {
	name, title, description string
	args                     []*mcp.PromptArgument
	text                     func(a map[string]string) string
}

var paneArg = &mcp.PromptArgument{Name: "paneId", Title: "Pane", Description: "Pane id such as %1 (list_panes gives them; completion offers them)", Required: true}

// catalogue is every prompt, in the order they are listed.
var catalogue = []prompt{
	{
		name:        "run_and_check",
		title:       "Run a command and check it",
		description: "Run a command line in a pane's shell and check that it did what was meant: its exit status and its output.",
		args: []*mcp.PromptArgument{
			paneArg,
			{Name: "command", Title: "Command", Description: "The command line to run, as typed at the shell prompt", Required: true},
			{Name: "expect", Title: "Expected", Description: "What success looks like (text in the output, a file made…); optional"},
		},
		text: func(a map[string]string) string {
			s := fmt.Sprintf("In tmux pane %s, run this command line and check that it worked:\n\n    %s\n\n", a["paneId"], a["command"])
			s += "Method:\n" +
				"1. Call run_shell_command with paneId " + a["paneId"] + " and the command exactly as given. It waits for the command to finish and returns its output and exitStatus.\n" +
				"2. If the outcome is a timeout (still running), do not run it again: call wait_for_command with the commandId it returned, as often as needed.\n" +
				"3. If run_shell_command refuses the pane (not at a shell prompt, in copy mode), say so and stop; do not type into it with send_keys.\n" +
				"4. Judge the result by exitStatus first, then by the output"
			if e := a["expect"]; e != "" {
				s += " and by this expectation: " + e
			}
			s += ".\n5. Report in two or three lines: succeeded or failed, the exit status, and the output lines that show why."
			return s
		},
	},
	{
		name:        "watch_job",
		title:       "Watch a job until it is done",
		description: "Follow what a long job in a pane prints until it finishes or prints what marks it done, then report how it ended.",
		args: []*mcp.PromptArgument{
			paneArg,
			{Name: "done", Title: "Done when", Description: "Text the job prints when it is done (e.g. \"Build succeeded\"); optional: without it, wait for the program to exit"},
		},
		text: func(a map[string]string) string {
			p := a["paneId"]
			s := fmt.Sprintf("Watch the job in tmux pane %s until it is done, without polling.\n\nMethod:\n", p)
			s += "1. Call capture_since with paneId " + p + " (no cursor) to see where it is and get a cursor.\n"
			if d := a["done"]; d != "" {
				s += fmt.Sprintf("2. Call wait_for_text with paneId %s, the cursor, patterns [%q] and a timeout; it returns when the text appears (or at the timeout, with what was printed meanwhile).\n", p, d)
			} else {
				s += "2. Call wait_for_exit with paneId " + p + " and a timeout; it returns when the program exits, with its exit status.\n"
			}
			s += "3. After each timeout, read what was printed (capture_since with the latest cursor); if it shows an error the job will not recover from, stop waiting and report it.\n" +
				"4. Repeat step 2 until it is done. If nothing at all is printed for a long time, wait_for_quiet and get_pane_info tell a quiet job from a stuck one.\n" +
				"5. Report how it ended: the exit status or the text that marked it done, and the last lines that matter (errors, warnings, a summary)."
			return s
		},
	},
	{
		name:        "why_stuck",
		title:       "Find out why a pane is stuck",
		description: "Diagnose a pane that seems to hang: what runs there, whether it waits for input, is in copy mode, has exited, or is still printing.",
		args:        []*mcp.PromptArgument{paneArg},
		text: func(a map[string]string) string {
			p := a["paneId"]
			return fmt.Sprintf("Tmux pane %s seems stuck. Find out why, and change nothing until you know.\n\nMethod:\n", p) +
				"1. Call get_pane_info for " + p + ": the foreground command, whether its program has exited (and how), whether the pane is in copy mode (tmux then shows the scrollback and keys do not reach the program), and whether a full-screen program uses the alternate screen.\n" +
				"2. Call capture_pane for " + p + " and read the last lines: a prompt waiting for input (a password, [y/N], \"Press any key\"), a pager (less, more, (END)), an editor, or an error.\n" +
				"3. Call wait_for_quiet for " + p + " with a few seconds' quiet period: if output still flows, the program is busy, not stuck.\n" +
				"4. Diagnose in one or two sentences: what it is waiting for, in tmux's words. Then propose the smallest fix (leave copy mode with send_keys q, answer the prompt, press C-c) and ask before sending any key that could lose work."
		},
	},
}

// Prompts serves the prompts and completes pane ids from c's server.
type Prompts struct {
	tmux *tmuxctl.Client
}

// New returns the prompts of c's server.
func New(c *tmuxctl.Client) *Prompts { return &Prompts{tmux: c} }

// Configure sets the completion handler in the server's options.
func (p *Prompts) Configure(o *mcp.ServerOptions) { o.CompletionHandler = p.complete }

// Register adds every prompt to s.
func (p *Prompts) Register(s *mcp.Server) {
	for _, pr := range catalogue {
		s.AddPrompt(&mcp.Prompt{Name: pr.name, Title: pr.title, Description: pr.description, Arguments: pr.args}, pr.get)
	}
}

func (pr prompt) get(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	a := req.Params.Arguments
	var missing []string
	for _, arg := range pr.args {
		if arg.Required && strings.TrimSpace(a[arg.Name]) == "" {
			missing = append(missing, arg.Name)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("prompt %s needs %s", pr.name, strings.Join(missing, " and "))
	}
	return &mcp.GetPromptResult{
		Description: pr.description,
		Messages:    []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: pr.text(a)}}},
	}, nil
}

// maxCompletions is the most values one completion returns (the
// protocol's limit).
const maxCompletions = 100

// complete offers the pane ids that start with what was typed ("%1" or
// "1"), for any argument named paneId: the prompts' and the screen
// template's. Other arguments get no suggestions.
func (p *Prompts) complete(ctx context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	res := &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: []string{}}}
	if req.Params.Argument.Name != "paneId" {
		return res, nil
	}
	panes, err := p.tmux.ListPanes(ctx, tmuxctl.PaneScope{})
	if err != nil {
		return res, nil // no server: nothing to offer
	}
	typed := req.Params.Argument.Value
	if typed != "" && !strings.HasPrefix(typed, "%") {
		typed = "%" + typed
	}
	var ids []string
	for _, pane := range panes {
		if strings.HasPrefix(string(pane.ID), typed) {
			ids = append(ids, string(pane.ID))
		}
	}
	sort.Slice(ids, func(i, j int) bool { return paneNumber(ids[i]) < paneNumber(ids[j]) })
	res.Completion.Total = len(ids)
	if len(ids) > maxCompletions {
		ids, res.Completion.HasMore = ids[:maxCompletions], true
	}
	res.Completion.Values = ids
	return res, nil
}

func paneNumber(id string) int {
	n := 0
	fmt.Sscanf(id, "%%%d", &n)
	return n
}
