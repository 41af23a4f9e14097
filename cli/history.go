package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/gear-chat/gear/store"
)

// openStore opens the history database the configuration names
// (--db, GEAR_DB, the config file, or the XDG data directory).
func (a *app) openStore(ctx context.Context) (*store.Store, error) {
	return store.Open(ctx, a.cfg.DB, store.Options{Now: a.deps.Now})
}

// readStore opens the history read-only: for commands that only read it.
func (a *app) readStore(ctx context.Context) (*store.Store, error) {
	return store.Open(ctx, a.cfg.DB, store.Options{Now: a.deps.Now, ReadOnly: true})
}

// withReadStore runs fn with the history open read-only: nothing is
// created or written. Without a history yet, noHistory runs instead when
// given (an empty listing); otherwise that is the one-line error.
func (a *app) withReadStore(cmd *cobra.Command, noHistory func(path string) error, fn func(context.Context, *store.Store) error) error {
	ctx := cmd.Context()
	s, err := a.readStore(ctx)
	var dbe *store.DBError
	if errors.Is(err, store.ErrNoHistory) && noHistory != nil && errors.As(err, &dbe) {
		return noHistory(dbe.Path)
	}
	if err != nil {
		return err
	}
	err = fn(ctx, s)
	if cerr := s.Close(); err == nil {
		err = cerr
	}
	if errors.Is(err, store.ErrNotFound) {
		return usageError{err}
	}
	return err
}

// emptyListing is what list and search print without a history: [] as
// JSON, else that there is none yet.
func emptyListing(cmd *cobra.Command, asJSON bool) func(string) error {
	return func(path string) error {
		if asJSON {
			return writeJSON(cmd.OutOrStdout(), []struct{}{})
		}
		writeConversationList(cmd.OutOrStdout(), path, nil)
		return nil
	}
}

// withStore runs fn with the history open, and turns "no such id" into a
// usage error: the user can fix it.
func (a *app) withStore(cmd *cobra.Command, fn func(context.Context, *store.Store) error) error {
	ctx := cmd.Context()
	s, err := a.openStore(ctx)
	if err != nil {
		return err
	}
	err = fn(ctx, s)
	if cerr := s.Close(); err == nil {
		err = cerr
	}
	if errors.Is(err, store.ErrNotFound) {
		return usageError{err}
	}
	return err
}

func (a *app) historyCommand() *cobra.Command {
	list := a.historyListCommand()
	cmd := &cobra.Command{
		Use:   "history",
		Short: "List, show, search, export and delete past conversations",
		Long: `gear keeps every conversation in one SQLite file: what you typed, how each
turn was routed and grounded (every tool's scores), the call that ran and
its response, the answer, and your ratings. Without a subcommand, lists the
recent conversations.

The file is $XDG_DATA_HOME/gear/gear.db (~/.local/share/gear/gear.db);
--db PATH or GEAR_DB choose another.`,
		Args: cobra.NoArgs,
		RunE: list.RunE,
	}
	cmd.Flags().AddFlagSet(list.Flags())
	cmd.AddCommand(list, a.historyShowCommand(), a.historySearchCommand(), a.historyExportCommand(), a.historyDeleteCommand())
	return cmd
}

func (a *app) historyListCommand() *cobra.Command {
	var limit int
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List recent conversations, newest first",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withReadStore(cmd, emptyListing(cmd, asJSON), func(ctx context.Context, s *store.Store) error {
				convs, err := s.Conversations(ctx, limit)
				if err != nil {
					return err
				}
				if asJSON {
					if convs == nil {
						convs = []store.Conversation{}
					}
					return writeJSON(cmd.OutOrStdout(), convs)
				}
				writeConversationList(cmd.OutOrStdout(), s.Path(), convs)
				return nil
			})
		},
	}
	cmd.Flags().IntVarP(&limit, "limit", "n", 20, "how many conversations (0: all)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func (a *app) historyShowCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "show ID",
		Short: "Show a conversation: every turn with its routing, grounding scores, call, answer and rating",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := conversationID(args[0])
			if err != nil {
				return err
			}
			return a.withReadStore(cmd, nil, func(ctx context.Context, s *store.Store) error {
				d, err := s.Export(ctx, id)
				if err != nil {
					return err
				}
				writeConversation(cmd.OutOrStdout(), d.Conversations[0])
				return nil
			})
		},
	}
}

func (a *app) historySearchCommand() *cobra.Command {
	var limit int
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "search QUERY...",
		Short: "Search past turns: words, \"phrases\", prefix*, and filters",
		Long: `Full-text search over what you typed, gear's answers and tool responses,
best match first, one line per turn with a snippet.

Filters (combine freely with words):
  tool:weather            the chosen tool's name or family
  conf<0.5  conf>=0.8     grounding confidence (<, <=, >, >=)
  rating:low|high|wrong   thumbs down, thumbs up, flagged as the wrong tool
  mode:chat|direct|baseline
  since:2026-11-01        on or after that day (local time)
  until:2026-11-30        on or before that day

Words must all match; "quote a phrase"; end a word with * for a prefix.`,
		Example: `  gear history search adelaide
  gear history search "new york" tool:weather since:2026-11-01
  gear history search rating:wrong`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			q, err := store.ParseQuery(strings.Join(args, " "), time.Local)
			if err != nil {
				return usageError{err}
			}
			return a.withReadStore(cmd, emptyListing(cmd, asJSON), func(ctx context.Context, s *store.Store) error {
				hits, err := s.Search(ctx, q, limit)
				if err != nil {
					return err
				}
				if asJSON {
					if hits == nil {
						hits = []store.Hit{}
					}
					return writeJSON(cmd.OutOrStdout(), hits)
				}
				writeHits(cmd.OutOrStdout(), hits, a.deps.IsTerminal)
				return nil
			})
		},
	}
	cmd.Flags().IntVarP(&limit, "limit", "n", 20, "at most this many turns")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func (a *app) historyExportCommand() *cobra.Command {
	var all, anonymize bool
	var format string
	cmd := &cobra.Command{
		Use:   "export ID...|--all",
		Short: "Export conversations as JSON (with every grounding score) or Markdown",
		Long: `Writes the conversations to stdout. JSON holds everything recorded: turns,
routing, every tool's grounding scores (S, P, f), calls, responses,
timings, token counts, ratings, and with --all the survey responses.

--anonymize drops free text (titles, queries, answers, calls, responses,
errors, comments, open-ended survey answers) and participant ids, keeping
tools, scores, timings and ratings.`,
		Example: `  gear history export 3 --format markdown > conversation-3.md
  gear history export --all --anonymize > history.json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			ids, err := selection(args, all, "export")
			if err != nil {
				return err
			}
			if format != "json" && format != "markdown" && format != "md" {
				return usageErrorf("export: --format %q: want json or markdown", format)
			}
			return a.withReadStore(cmd, nil, func(ctx context.Context, s *store.Store) error {
				d, err := s.Export(ctx, ids...)
				if err != nil {
					return err
				}
				if anonymize {
					d = d.Anonymize()
				}
				if format == "json" {
					return writeJSON(cmd.OutOrStdout(), d)
				}
				writeMarkdown(cmd.OutOrStdout(), d)
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&all, "all", false, "export the whole history")
	cmd.Flags().StringVarP(&format, "format", "f", "json", "json or markdown")
	cmd.Flags().BoolVar(&anonymize, "anonymize", false, "drop free text and participant ids")
	return cmd
}

func (a *app) historyDeleteCommand() *cobra.Command {
	var all, yes bool
	cmd := &cobra.Command{
		Use:   "delete ID...|--all",
		Short: "Delete conversations for good, search index included",
		Long: `Deletes conversations with their turns, scores, calls and ratings. The text
is removed from the search index and overwritten in the file, not merely
hidden.

--all also deletes survey responses and the embedding cache (the study's
participant id and phase stay). It asks first on a terminal; elsewhere
(a script, a pipe) it needs --yes.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			ids, err := selection(args, all, "delete")
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			return a.withStore(cmd, func(ctx context.Context, s *store.Store) error {
				if !all {
					for _, id := range ids {
						if err := s.DeleteConversation(ctx, id); err != nil {
							return err
						}
						fmt.Fprintf(out, "Deleted conversation %d.\n", id)
					}
					return nil
				}
				counts, err := s.Counts(ctx)
				if err != nil {
					return err
				}
				if counts == (store.Totals{}) {
					fmt.Fprintln(out, "Nothing to delete.")
					return nil
				}
				prompt := fmt.Sprintf("Delete %s from %s? This cannot be undone. [y/N] ", describeTotals(counts), s.Path())
				ok, err := confirmDeleteAll(ctx, confirmation{yes: yes, interactive: a.deps.StdinIsTerminal, in: a.deps.Stdin,
					prompt: cmd.ErrOrStderr(), question: prompt})
				if err != nil || !ok {
					if err == nil {
						fmt.Fprintln(out, "Nothing deleted.")
					}
					return err
				}
				deleted, err := s.DeleteAll(ctx)
				if err != nil {
					return err
				}
				fmt.Fprintf(out, "Deleted %s.\n", describeTotals(deleted))
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&all, "all", false, "delete the whole history")
	cmd.Flags().BoolVarP(&yes, "yes", "y", false, "do not ask for confirmation")
	return cmd
}

// confirmation is a yes/no question put to the person at the terminal.
type confirmation struct {
	// yes answers it in advance (--yes).
	yes bool
	// interactive says someone can answer: stdin is a terminal
	// (Deps.StdinIsTerminal).
	interactive bool
	in          io.Reader
	// prompt is where question is written.
	prompt   io.Writer
	question string
}

// confirmDeleteAll decides whether --all goes ahead: --yes does; on a
// terminal the user is asked; anywhere else it is refused, since nobody
// can answer and a script should say --yes.
func confirmDeleteAll(ctx context.Context, c confirmation) (bool, error) {
	if c.yes {
		return true, nil
	}
	if !c.interactive || c.in == nil {
		return false, usageErrorf("delete --all: stdin is not a terminal, so gear cannot ask; add --yes to delete the whole history")
	}
	fmt.Fprint(c.prompt, c.question)
	answer, err := readAnswer(ctx, c.in)
	if err != nil {
		return false, err
	}
	switch strings.ToLower(answer) {
	case "y", "yes":
		return true, nil
	}
	return false, nil
}

// selection reads the IDs or --all of export and delete.
func selection(args []string, all bool, verb string) ([]int64, error) {
	switch {
	case all && len(args) > 0:
		return nil, usageErrorf("%s: give conversation ids or --all, not both", verb)
	case all:
		return nil, nil
	case len(args) == 0:
		return nil, usageErrorf("%s: give conversation ids (gear history list shows them) or --all", verb)
	}
	ids := make([]int64, 0, len(args))
	for _, arg := range args {
		id, err := conversationID(arg)
		if err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, nil
}

func conversationID(arg string) (int64, error) {
	id, err := strconv.ParseInt(arg, 10, 64)
	if err != nil || id <= 0 {
		return 0, usageErrorf("conversation id %q: want a number, as gear history list shows", arg)
	}
	return id, nil
}

func describeTotals(t store.Totals) string {
	s := plural(t.Conversations, "conversation")
	if t.Surveys > 0 {
		s += " and " + plural(t.Surveys, "survey response")
	}
	return s
}

func plural(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
