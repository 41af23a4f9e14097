package cli

import (
	"context"
	"strconv"
	"strings"

	"github.com/gear-chat/gear/store"
)

// settingAskConversations lists the conversations gear ask started, so the
// chat window resumes the last chat rather than a one-shot question.
const settingAskConversations = "ask_conversations"

// maxOneShots bounds the list: the chat looks only at recent conversations.
const maxOneShots = 200

// recordOneShot adds a conversation gear ask started to the list. It is
// a convenience: failing to keep it loses nothing of the conversation.
func recordOneShot(ctx context.Context, st *store.Store, id int64) {
	if st == nil || id == 0 {
		return
	}
	ids := oneShotIDs(ctx, st)
	ids = append(ids, id)
	if len(ids) > maxOneShots {
		ids = ids[len(ids)-maxOneShots:]
	}
	parts := make([]string, len(ids))
	for i, v := range ids {
		parts[i] = strconv.FormatInt(v, 10)
	}
	_ = st.SetSetting(ctx, settingAskConversations, strings.Join(parts, " "))
}

func oneShotIDs(ctx context.Context, st *store.Store) []int64 {
	v, ok, err := st.Setting(ctx, settingAskConversations)
	if err != nil || !ok {
		return nil
	}
	var ids []int64
	for _, f := range strings.Fields(v) {
		if id, err := strconv.ParseInt(f, 10, 64); err == nil {
			ids = append(ids, id)
		}
	}
	return ids
}

// chatResumable says which conversations the chat may reopen on start:
// any but those gear ask started.
func chatResumable(ctx context.Context, st *store.Store) func(store.Conversation) bool {
	skip := map[int64]bool{}
	for _, id := range oneShotIDs(ctx, st) {
		skip[id] = true
	}
	return func(c store.Conversation) bool { return !skip[c.ID] }
}
