package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"
)

// SchemaVersion is the schema this gear writes: the number of the last
// migration in migrations/. A database with a higher user_version comes
// from a newer gear and is refused.
const SchemaVersion = 9

// applicationID marks a file as gear's ("GEAR") in the SQLite header.
const applicationID = 0x47454152

//go:embed migrations/*.sql
var migrationFiles embed.FS

type migration struct {
	version int
	name    string
	sql     string
}

// migrations reads the embedded files NNNN_name.sql, which must be
// numbered 1, 2, 3... without gaps.
func migrations() ([]migration, error) {
	entries, err := migrationFiles.ReadDir("migrations")
	if err != nil {
		return nil, err
	}
	var out []migration
	for _, e := range entries {
		num, name, ok := strings.Cut(strings.TrimSuffix(e.Name(), ".sql"), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil {
			return nil, fmt.Errorf("migration file %s: want NNNN_name.sql", e.Name())
		}
		if v != len(out)+1 {
			return nil, fmt.Errorf("migration file %s: want number %d", e.Name(), len(out)+1)
		}
		body, err := migrationFiles.ReadFile(path.Join("migrations", e.Name()))
		if err != nil {
			return nil, err
		}
		out = append(out, migration{version: v, name: name, sql: string(body)})
	}
	return out, nil
}

// migrate applies the migrations after the database's version, up to
// target, each in its own immediate transaction. The version is read again
// inside the transaction, so two processes opening a new file at once
// apply each migration once.
func (s *Store) migrate(ctx context.Context, target int) error {
	all, err := migrations()
	if err != nil {
		return err
	}
	for _, m := range all {
		if m.version > target {
			break
		}
		if err := s.retry(ctx, func(ctx context.Context) error { return s.apply(ctx, m) }); err != nil {
			return err
		}
	}
	return nil
}

// apply runs one migration with foreign keys off, as SQLite's procedure
// for rebuilding a table asks: dropping the old table would otherwise
// delete, by cascade, every row that references it. Before the commit
// foreign_key_check must find every reference whole; foreign keys are on
// again before the connection goes back to the pool, or the error closes
// the store.
func (s *Store) apply(ctx context.Context, m migration) (err error) {
	conn, err := s.w.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "PRAGMA foreign_keys = OFF"); err != nil {
		return err
	}
	defer func() {
		if _, ferr := conn.ExecContext(context.WithoutCancel(ctx), "PRAGMA foreign_keys = ON"); ferr != nil && err == nil {
			err = fmt.Errorf("migration %d (%s): turning foreign keys back on: %w", m.version, m.name, ferr)
		}
	}()
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var current int
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&current); err != nil {
		return err
	}
	if current >= m.version {
		return nil
	}
	if _, err := tx.ExecContext(ctx, m.sql); err != nil {
		return fmt.Errorf("migration %d (%s): %w", m.version, m.name, err)
	}
	var table string
	switch err := tx.QueryRowContext(ctx, `SELECT "table" FROM pragma_foreign_key_check LIMIT 1`).Scan(&table); {
	case err == nil:
		return fmt.Errorf("migration %d (%s): rows of %s lost the rows they refer to", m.version, m.name, table)
	case !errors.Is(err, sql.ErrNoRows):
		return err
	}
	if m.version == 1 {
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA application_id = %d", applicationID)); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", m.version)); err != nil {
		return err
	}
	return tx.Commit()
}
