package store

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"strings"
)

// interruptedSchema is the schema from which turns record their process.
const interruptedSchema = 6

// interruptedError is the error an interrupted turn is given.
const interruptedError = "interrupted: gear stopped before this turn finished"

// markInterrupted marks 'interrupted' the running turns whose process is
// gone: killed, crashed, or from before turns recorded their process. A
// turn another live gear process is running is left alone.
func (s *Store) markInterrupted(ctx context.Context) error {
	var owners []sql.NullInt64
	// On the writer's connection, open already: a reader's would be
	// opened for this one query.
	err := s.retry(ctx, func(ctx context.Context) error {
		rows, err := s.w.QueryContext(ctx, "SELECT DISTINCT owner_pid FROM turns WHERE status = 'running'")
		if err != nil {
			return err
		}
		defer rows.Close()
		owners = owners[:0]
		for rows.Next() {
			var pid sql.NullInt64
			if err := rows.Scan(&pid); err != nil {
				return err
			}
			owners = append(owners, pid)
		}
		return rows.Err()
	})
	if err != nil {
		return err
	}
	var gone []string
	for _, pid := range owners {
		switch {
		case !pid.Valid:
			gone = append(gone, "owner_pid IS NULL")
		case int(pid.Int64) != os.Getpid() && !processAlive(int(pid.Int64)):
			gone = append(gone, fmt.Sprintf("owner_pid = %d", pid.Int64))
		}
	}
	if len(gone) == 0 {
		return nil
	}
	now := unixMS(s.now())
	return s.write(ctx, false, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE turns SET status = 'interrupted', finished_at = ?,
			error = CASE WHEN error = '' THEN ? ELSE error END
			WHERE status = 'running' AND (`+strings.Join(gone, " OR ")+`)`, now, interruptedError)
		return err
	})
}
