# Source for Set C library (unseen-library-2). Written by hand.
def S(desc, **kw):
    d = {"type": "string", "description": desc}; d.update(kw); return d
def I(desc, **kw):
    d = {"type": "integer", "description": desc}; d.update(kw); return d
def N(desc, **kw):
    d = {"type": "number", "description": desc}; d.update(kw); return d
def B(desc, **kw):
    d = {"type": "boolean", "description": desc}; d.update(kw); return d
def A(desc, item="string", **kw):
    d = {"type": "array", "items": {"type": item}, "description": desc}; d.update(kw); return d
def O(desc):
    return {"type": "object", "description": desc}
def E(desc, values):
    return {"type": "string", "enum": values, "description": desc}

DOMAINS = {}
TOOLS = []
def T(domain, name, desc, props, required, examples=()):
    TOOLS.append({"name": name, "description": desc,
                  "inputSchema": {"type": "object", "properties": props, "required": list(required)},
                  **({"examples": [{"query": q} for q in examples]} if examples else {})})
    DOMAINS.setdefault(domain, []).append(name)

# ---- git hosting
T("git hosting", "create_pull_request", "Open a pull request in a hosted Git repository, proposing to merge a head branch into a base branch. Can be opened as a draft.",
  {"repo": S("Repository in owner/name form"), "title": S("Pull request title"), "head": S("Branch containing the changes"), "base": S("Branch to merge into, e.g. main"), "body": S("Description in Markdown"), "draft": B("Open as a draft pull request")},
  ["repo", "title", "head", "base"], ["open a PR from feature/login-form into main in acme/webshop"])
T("git hosting", "list_pull_requests", "List pull requests of a repository, filtered by state. Returns number, title, author and branch names.",
  {"repo": S("Repository in owner/name form"), "state": E("Which pull requests to list", ["open", "closed", "all"]), "author": S("Only pull requests by this user")},
  ["repo"])
T("git hosting", "get_file_contents", "Fetch the contents of a file from a hosted repository at a given branch, tag or commit.",
  {"repo": S("Repository in owner/name form"), "path": S("Path of the file inside the repository"), "ref": S("Branch, tag or commit SHA; defaults to the default branch")},
  ["repo", "path"])
T("git hosting", "search_repositories", "Search public and private repositories on the Git hosting service by keyword, optionally filtered by language, and sorted by stars or recent activity.",
  {"query": S("Search keywords"), "language": S("Programming language filter"), "sort": E("Sort order", ["stars", "updated", "best-match"])},
  ["query"], ["find repos about vector databases written in Go", "any popular repositories for parsing PDFs in Rust?"])
T("git hosting", "list_commits", "List recent commits on a branch of a repository, optionally filtered by author and date.",
  {"repo": S("Repository in owner/name form"), "branch": S("Branch name"), "author": S("Commit author username or email"), "since": S("ISO 8601 date; only commits after it")},
  ["repo"])
# ---- issue tracking
T("issue tracking", "create_issue", "Create a new issue (ticket) in a project of the issue tracker with a title, description, priority and labels.",
  {"project": S("Project key, e.g. WEB"), "title": S("Short summary"), "description": S("Full description"), "priority": E("Priority", ["lowest", "low", "medium", "high", "critical"]), "labels": A("Labels to attach")},
  ["project", "title"], ["file a bug in WEB: checkout button does nothing on Safari", "open a ticket for the flaky login test, high priority"])
T("issue tracking", "comment_on_issue", "Add a comment to an existing issue in the issue tracker.",
  {"issue_id": S("Issue key, e.g. WEB-142"), "body": S("Comment text in Markdown")},
  ["issue_id", "body"])
T("issue tracking", "update_issue_status", "Move an issue to a different workflow status such as in progress, in review or done.",
  {"issue_id": S("Issue key"), "status": E("New status", ["todo", "in_progress", "in_review", "done", "wont_fix"])},
  ["issue_id", "status"], ["mark OPS-88 as done", "move WEB-12 to in review"])
T("issue tracking", "search_issues", "Search issues in the tracker by text, assignee, status or label. Returns keys, titles and statuses.",
  {"query": S("Free-text search"), "assignee": S("Username, or 'me'"), "status": S("Status filter"), "label": S("Label filter")},
  [])
T("issue tracking", "assign_issue", "Assign an issue to a team member, or unassign it by passing an empty assignee.",
  {"issue_id": S("Issue key"), "assignee": S("Username of the new assignee; empty string to unassign")},
  ["issue_id", "assignee"])
# ---- cloud storage
T("cloud storage", "upload_file", "Upload a local file to a folder in cloud storage. Fails if the file exists unless overwrite is set.",
  {"local_path": S("Path of the file on this computer"), "remote_folder": S("Destination folder in cloud storage"), "overwrite": B("Replace an existing file with the same name")},
  ["local_path", "remote_folder"], ["put ~/Desktop/taxes-2025.pdf in my Finance folder in the cloud"])
T("cloud storage", "list_folder", "List the files and subfolders in a cloud storage folder with size and modification date.",
  {"path": S("Folder path; '/' for the root"), "recursive": B("Include the contents of subfolders")},
  ["path"])
T("cloud storage", "share_file_link", "Create a shareable link to a file or folder in cloud storage with view or edit permission and an optional expiry.",
  {"path": S("File or folder path"), "permission": E("Access granted by the link", ["view", "edit"]), "expires_in_days": I("Days until the link stops working")},
  ["path"], ["give me a link to /Photos/Wedding that anyone can view", "share the budget spreadsheet so people can edit it, expiring in a week"])
T("cloud storage", "search_files", "Search cloud storage for files by name or content, optionally limited to a file type.",
  {"query": S("Words in the file name or content"), "file_type": E("File type filter", ["any", "document", "spreadsheet", "image", "pdf", "video"])},
  ["query"])
T("cloud storage", "move_file", "Move or rename a file or folder within cloud storage.",
  {"source": S("Current path"), "destination": S("New path, including the new name if renaming")},
  ["source", "destination"])
# ---- databases
T("databases", "run_sql_query", "Execute a SQL statement against a configured database connection and return the resulting rows.",
  {"connection": S("Name of the configured connection"), "sql": S("SQL statement"), "max_rows": I("Maximum number of rows to return")},
  ["connection", "sql"], ["how many orders were placed yesterday? use the prod-replica connection", "SELECT count(*) FROM users WHERE created_at > now() - interval '7 days' on analytics"])
T("databases", "list_tables", "List the tables in a database connection, optionally within one schema.",
  {"connection": S("Name of the configured connection"), "schema": S("Schema name, e.g. public")},
  ["connection"])
T("databases", "describe_table", "Show the columns, types, indexes and foreign keys of a database table.",
  {"connection": S("Name of the configured connection"), "table": S("Table name, optionally schema-qualified")},
  ["connection", "table"])
T("databases", "export_query_csv", "Run a SQL query and save the full result set as a CSV file on disk.",
  {"connection": S("Name of the configured connection"), "sql": S("SQL query"), "output_path": S("Where to write the CSV")},
  ["connection", "sql", "output_path"])
T("databases", "create_database_backup", "Create a full backup dump of a database and store it at the given destination.",
  {"connection": S("Name of the configured connection"), "destination": S("Local path or bucket URL for the dump"), "compress": B("Gzip the dump")},
  ["connection", "destination"])
# ---- calendars
T("calendars", "list_events", "List calendar events between two dates, optionally for a specific calendar.",
  {"calendar": S("Calendar name; defaults to the primary calendar"), "start_date": S("ISO date"), "end_date": S("ISO date")},
  ["start_date", "end_date"], ["what have I got on next Tuesday?"])
T("calendars", "create_event", "Create a calendar event with a title, start and end time, optional attendees and location.",
  {"title": S("Event title"), "start": S("ISO 8601 start date-time"), "end": S("ISO 8601 end date-time"), "attendees": A("Email addresses to invite"), "location": S("Place or video link")},
  ["title", "start", "end"], ["put a dentist appointment in my calendar Thursday 3-4pm", "schedule a 30 min sync with priya@acme.io tomorrow at 10"])
T("calendars", "delete_event", "Delete a calendar event. Attendees are notified of the cancellation.",
  {"event_id": S("Identifier of the event"), "notify": B("Send cancellation notices")},
  ["event_id"])
T("calendars", "update_event", "Change the time, title or location of an existing calendar event.",
  {"event_id": S("Identifier of the event"), "start": S("New ISO 8601 start"), "end": S("New ISO 8601 end"), "title": S("New title"), "location": S("New location")},
  ["event_id"])
T("calendars", "find_free_slot", "Find times when all the given people are free for a meeting of a given length within the next days.",
  {"attendees": A("Email addresses"), "duration_minutes": I("Meeting length in minutes"), "within_days": I("How many days ahead to search")},
  ["attendees", "duration_minutes"])
# ---- email
T("email", "send_email", "Send an email immediately to one or more recipients.",
  {"to": A("Recipient addresses"), "subject": S("Subject line"), "body": S("Plain-text body"), "cc": A("CC addresses")},
  ["to", "subject", "body"], ["email tom@northwind.com that the contract is signed"])
T("email", "search_emails", "Search the mailbox by sender, subject or words in the body, optionally only unread mail or one folder.",
  {"query": S("Search terms, e.g. from:alice invoice"), "folder": S("Folder name, e.g. Inbox"), "unread_only": B("Only unread messages")},
  ["query"])
T("email", "reply_to_email", "Reply to an email message, optionally to all recipients.",
  {"message_id": S("Identifier of the message"), "body": S("Reply text"), "reply_all": B("Reply to everyone on the thread")},
  ["message_id", "body"])
T("email", "create_email_draft", "Save an email as a draft without sending it, so it can be reviewed later.",
  {"to": A("Recipient addresses"), "subject": S("Subject line"), "body": S("Body text")},
  ["subject", "body"])
T("email", "archive_email", "Move an email out of the inbox into the archive.",
  {"message_id": S("Identifier of the message")},
  ["message_id"])
# ---- smart home
T("smart home", "set_light_state", "Turn lights in a room on or off and set their brightness.",
  {"room": S("Room name"), "on": B("True to switch on, false to switch off"), "brightness": I("Brightness 0-100 percent")},
  ["room", "on"], ["kitchen lights to 40 percent", "kill the lights in the hallway"])
T("smart home", "set_thermostat", "Set the target temperature and mode of the home thermostat.",
  {"temperature": N("Target temperature in degrees Celsius"), "mode": E("Thermostat mode", ["heat", "cool", "auto", "off"])},
  ["temperature"])
T("smart home", "lock_door", "Lock or unlock a smart door lock.",
  {"door": S("Door name, e.g. front, back, garage"), "locked": B("True to lock, false to unlock")},
  ["door", "locked"])
T("smart home", "get_sensor_reading", "Read the latest value from a home sensor: temperature, humidity, CO2 or motion, by room.",
  {"room": S("Room name"), "metric": E("What to read", ["temperature", "humidity", "co2", "motion"])},
  ["room", "metric"], ["is the basement damp right now?", "what's the co2 level in the office"])
T("smart home", "run_scene", "Activate a saved smart-home scene that sets several devices at once, such as 'movie night' or 'good morning'.",
  {"scene_name": S("Name of the saved scene")},
  ["scene_name"])
# ---- music
T("music", "play_track", "Start playing a song, album, artist or playlist on a chosen device.",
  {"query": S("What to play"), "device": S("Speaker or device name"), "shuffle": B("Shuffle playback")},
  ["query"], ["put on Kind of Blue in the kitchen", "play something by Khruangbin"])
T("music", "add_to_playlist", "Add one or more tracks to an existing playlist.",
  {"playlist": S("Playlist name"), "tracks": A("Track names or IDs")},
  ["playlist", "tracks"])
T("music", "create_playlist", "Create a new, empty playlist in the music library.",
  {"name": S("Playlist name"), "description": S("Short description"), "public": B("Visible to other users")},
  ["name"])
T("music", "search_music", "Search the music catalogue for tracks, albums, artists or playlists without playing anything.",
  {"query": S("Search terms"), "type": E("Kind of result", ["track", "album", "artist", "playlist"])},
  ["query"])
T("music", "get_now_playing", "Return the track, artist and album that is currently playing, and the playback position.",
  {}, [], ["what's this song called?", "who sings this"])
# ---- maps / transit
T("maps and transit", "get_directions", "Get step-by-step directions between two places by car, on foot, by bike or by public transport.",
  {"origin": S("Start address or place"), "destination": S("End address or place"), "mode": E("Travel mode", ["driving", "walking", "cycling", "transit"])},
  ["origin", "destination"], ["how do I walk from the Louvre to Notre-Dame", "route from home to the stadium by bike"])
T("maps and transit", "search_places", "Find places such as restaurants, shops or pharmacies near a location, optionally only those open now.",
  {"query": S("What to look for"), "near": S("Address or area"), "open_now": B("Only places open now")},
  ["query"])
T("maps and transit", "get_transit_departures", "Show the next departures from a bus, tram, metro or train stop, optionally for one line.",
  {"stop": S("Stop or station name"), "line": S("Line number or name"), "limit": I("Number of departures")},
  ["stop"])
T("maps and transit", "estimate_travel_time", "Estimate how long a trip between two places takes at a given departure time, taking typical traffic into account.",
  {"origin": S("Start"), "destination": S("End"), "depart_at": S("ISO 8601 departure time; default now")},
  ["origin", "destination"])
T("maps and transit", "geocode_address", "Convert a street address into latitude and longitude coordinates.",
  {"address": S("Full or partial address")},
  ["address"])
# ---- recipes
T("recipes", "search_recipes", "Find recipes by ingredients, cuisine, diet and maximum preparation time.",
  {"ingredients": A("Ingredients to use"), "cuisine": S("Cuisine, e.g. thai"), "max_minutes": I("Maximum total time"), "diet": E("Dietary restriction", ["none", "vegetarian", "vegan", "gluten-free", "keto"])},
  [], ["something vegan with chickpeas under 30 minutes"])
T("recipes", "get_recipe", "Get the full ingredient list and steps of a recipe by its ID.",
  {"recipe_id": S("Recipe identifier")},
  ["recipe_id"])
T("recipes", "scale_recipe", "Recalculate a recipe's ingredient quantities for a different number of servings.",
  {"recipe_id": S("Recipe identifier"), "servings": I("Desired number of servings")},
  ["recipe_id", "servings"], ["make the lasagne recipe serve 10 instead of 4"])
T("recipes", "add_ingredients_to_shopping_list", "Add ingredients to the shared shopping list.",
  {"items": A("Items to add, with quantities if known")},
  ["items"])
T("recipes", "plan_meals", "Generate a meal plan for a number of days, respecting a diet and a daily calorie target.",
  {"days": I("Number of days"), "diet": S("Dietary preference"), "calories_per_day": I("Daily calorie target")},
  ["days"])
# ---- fitness
T("fitness", "log_workout", "Record a completed workout with activity type, duration and distance.",
  {"activity": E("Activity type", ["run", "walk", "cycle", "swim", "strength", "yoga", "other"]), "duration_minutes": I("Duration"), "distance_km": N("Distance in km, if any"), "notes": S("Free notes")},
  ["activity", "duration_minutes"], ["I just swam 1.2 km in 40 minutes, save that", "log 45 minutes of weights"])
T("fitness", "get_activity_summary", "Summarise steps, active minutes, distance and calories for a day, week or month.",
  {"period": E("Period", ["day", "week", "month"])},
  ["period"])
T("fitness", "log_body_weight", "Record a body-weight measurement for a date.",
  {"weight_kg": N("Weight in kilograms"), "date": S("ISO date; defaults to today")},
  ["weight_kg"])
T("fitness", "get_heart_rate_history", "Return resting and average heart rate from the wearable for the last N days.",
  {"days": I("Number of days")},
  ["days"])
T("fitness", "set_fitness_goal", "Set a daily goal for steps, distance or active minutes.",
  {"goal_type": E("Goal type", ["steps", "distance_km", "active_minutes"]), "target": N("Target value per day")},
  ["goal_type", "target"])
# ---- finance / invoicing
T("finance and invoicing", "create_invoice", "Create an invoice for a client with line items, due date and currency.",
  {"client": S("Client name"), "items": A("Line items as 'description: amount'"), "due_date": S("ISO date"), "currency": S("ISO 4217 code")},
  ["client", "items"], ["bill Nordlicht GmbH 2,400 EUR for the October design work, due in 30 days"])
T("finance and invoicing", "list_invoices", "List invoices, filtered by status or client.",
  {"status": E("Invoice status", ["draft", "sent", "paid", "overdue"]), "client": S("Client name")},
  [])
T("finance and invoicing", "send_invoice_reminder", "Email a payment reminder for an unpaid invoice to the client.",
  {"invoice_id": S("Invoice number"), "message": S("Optional personal message")},
  ["invoice_id"])
T("finance and invoicing", "record_expense", "Record a business expense with amount, category and date for bookkeeping.",
  {"amount": N("Amount"), "category": S("Category, e.g. travel, software"), "date": S("ISO date"), "description": S("What it was for")},
  ["amount", "category"], ["I paid 39 dollars for the Figma subscription, log it under software"])
T("finance and invoicing", "get_account_balance", "Get the current balance of a connected business bank account.",
  {"account": S("Account name; defaults to the main account")},
  [])
# ---- documents / PDF
T("documents and PDF", "merge_pdfs", "Combine several PDF files into one, in the order given.",
  {"files": A("PDF paths in order"), "output": S("Path of the merged PDF")},
  ["files", "output"], ["stick chapter1.pdf and chapter2.pdf together into book.pdf"])
T("documents and PDF", "extract_pdf_text", "Extract the text of a PDF, optionally only some pages.",
  {"file": S("PDF path"), "pages": S("Page range, e.g. 1-3,7")},
  ["file"])
T("documents and PDF", "convert_document", "Convert a document between formats such as DOCX, PDF, Markdown and HTML.",
  {"file": S("Input path"), "target_format": E("Output format", ["pdf", "docx", "md", "html"])},
  ["file", "target_format"])
T("documents and PDF", "compress_pdf", "Reduce the file size of a PDF by recompressing images.",
  {"file": S("PDF path"), "quality": E("Trade-off", ["low", "medium", "high"])},
  ["file"])
T("documents and PDF", "fill_pdf_form", "Fill the fields of a fillable PDF form and save the result.",
  {"file": S("PDF form path"), "fields": O("Field name to value mapping"), "output": S("Path for the filled PDF")},
  ["file", "fields"])
# ---- CI/CD
T("CI/CD", "trigger_pipeline", "Start a CI pipeline run for a repository branch, optionally a specific workflow.",
  {"repo": S("Repository"), "branch": S("Branch to build"), "workflow": S("Workflow file or name")},
  ["repo", "branch"], ["kick off the build for release/2.3 on api-server", "rerun CI on main for the billing repo"])
T("CI/CD", "get_pipeline_status", "Get the status of the latest or a specific pipeline run: queued, running, passed or failed, per job.",
  {"repo": S("Repository"), "branch": S("Branch"), "pipeline_id": S("Specific run ID")},
  ["repo"])
T("CI/CD", "get_job_logs", "Fetch the log output of one CI job, optionally only the last lines.",
  {"job_id": S("Job identifier"), "tail_lines": I("Only return the last N lines")},
  ["job_id"])
T("CI/CD", "cancel_pipeline", "Cancel a queued or running pipeline run.",
  {"pipeline_id": S("Run identifier")},
  ["pipeline_id"])
T("CI/CD", "deploy_release", "Deploy a given version of a service to staging or production.",
  {"service": S("Service name"), "version": S("Version tag or commit"), "environment": E("Target environment", ["staging", "production"])},
  ["service", "version", "environment"], ["ship v4.2.0 of checkout-service to prod"])
# ---- chat / messaging
T("chat and messaging", "send_chat_message", "Post a message to a team chat channel or into a thread.",
  {"channel": S("Channel name, e.g. #general"), "text": S("Message text"), "thread_id": S("Reply inside this thread")},
  ["channel", "text"], ["tell #frontend that the design review moved to 3pm"])
T("chat and messaging", "list_channels", "List the chat channels the user can see.",
  {"include_archived": B("Also list archived channels")},
  [])
T("chat and messaging", "search_messages", "Search team chat history by words, channel or sender.",
  {"query": S("Search terms"), "channel": S("Limit to one channel"), "from_user": S("Limit to one sender")},
  ["query"])
T("chat and messaging", "set_status", "Set the user's chat status text and emoji, with optional expiry.",
  {"text": S("Status text"), "emoji": S("Emoji code, e.g. :palm_tree:"), "expires_in_minutes": I("Clear after this many minutes")},
  ["text"])
T("chat and messaging", "create_channel", "Create a new chat channel, public or private, and invite members.",
  {"name": S("Channel name"), "private": B("Make the channel private"), "members": A("Users to invite")},
  ["name"])
# ---- package registries
T("package registries", "search_packages", "Search a package registry (npm, PyPI, crates.io or Maven Central) by keyword.",
  {"query": S("Keywords"), "registry": E("Registry", ["npm", "pypi", "crates", "maven"])},
  ["query", "registry"], ["is there a pypi library for reading .heic images"])
T("package registries", "get_package_info", "Get metadata for a package: latest version, license, description, homepage and dependencies.",
  {"name": S("Package name"), "registry": E("Registry", ["npm", "pypi", "crates", "maven"])},
  ["name", "registry"])
T("package registries", "list_package_versions", "List all published versions of a package with their release dates.",
  {"name": S("Package name"), "registry": E("Registry", ["npm", "pypi", "crates", "maven"])},
  ["name", "registry"])
T("package registries", "check_vulnerabilities", "Check a package version against known security advisories (CVEs).",
  {"name": S("Package name"), "version": S("Version to check"), "registry": E("Registry", ["npm", "pypi", "crates", "maven"])},
  ["name", "version", "registry"], ["does lodash 4.17.15 have any known CVEs?"])
T("package registries", "get_download_stats", "Return download counts for a package over the last day, week or month.",
  {"name": S("Package name"), "registry": E("Registry", ["npm", "pypi", "crates", "maven"]), "period": E("Period", ["day", "week", "month"])},
  ["name", "registry"])
# ---- system monitoring
T("system monitoring", "get_system_stats", "Report current CPU load, memory use, disk usage and uptime of this machine.",
  {}, [], ["how much RAM is free right now", "is my disk almost full?"])
T("system monitoring", "list_processes", "List running processes sorted by CPU or memory use.",
  {"sort_by": E("Sort key", ["cpu", "memory"]), "limit": I("Number of processes")},
  [])
T("system monitoring", "kill_process", "Send a signal to a process to stop it.",
  {"pid": I("Process ID"), "signal": E("Signal", ["TERM", "KILL", "HUP", "INT"])},
  ["pid"])
T("system monitoring", "tail_log", "Show the last lines of a log file, optionally only lines matching a filter.",
  {"path": S("Log file path"), "lines": I("Number of lines"), "filter": S("Only lines containing this text")},
  ["path"])
T("system monitoring", "check_service_health", "Probe an HTTP endpoint and report status code, latency and whether it is up.",
  {"url": S("URL to probe"), "timeout_seconds": I("Timeout")},
  ["url"], ["is https://status.example.org responding?"])
# ---- note-taking
T("note-taking", "create_note", "Create a new note with a title and content in a notebook, with optional tags.",
  {"title": S("Note title"), "content": S("Note body in Markdown"), "notebook": S("Notebook name"), "tags": A("Tags")},
  ["title"], ["jot down: ideas for the offsite - bowling, escape room"])
T("note-taking", "search_notes", "Search notes by words, notebook or tag.",
  {"query": S("Search terms"), "notebook": S("Notebook name"), "tag": S("Tag")},
  [])
T("note-taking", "append_to_note", "Add text to the end of an existing note.",
  {"note_id": S("Note identifier or exact title"), "text": S("Text to append")},
  ["note_id", "text"])
T("note-taking", "list_notebooks", "List all notebooks with the number of notes in each.",
  {}, [])
T("note-taking", "delete_note", "Move a note to the trash.",
  {"note_id": S("Note identifier or exact title")},
  ["note_id"])

# second examples for tools that were given one above (so every tool with examples has 2-4)
EXTRA_EXAMPLES = {
 "create_pull_request": ["raise a draft pull request for my dark-mode branch against develop in lumen/app"],
 "upload_file": ["back up report.docx to the Shared/Q3 folder, replace the old one"],
 "list_events": ["show my meetings for the first week of December"],
 "send_email": ["send an email to hr@example.com with subject 'Sick day' saying I'm off today"],
 "search_recipes": ["dinner ideas using leftover rice and eggs"],
 "scale_recipe": ["halve recipe 5531 so it's for two people"],
 "create_invoice": ["make an invoice for Blue Finch Studio: logo design 800, two revisions 150 each"],
 "record_expense": ["add a 62.40 train ticket to expenses, category travel, dated 3 November"],
 "merge_pdfs": ["combine all the scanned receipts into one PDF called receipts-nov.pdf"],
 "deploy_release": ["push build 1.9.0-rc2 of the search api to staging"],
 "send_chat_message": ["post 'standup is cancelled today' in #team-core"],
 "search_packages": ["npm packages for drawing charts in the terminal"],
 "check_vulnerabilities": ["is requests 2.19.0 on pypi affected by any security advisories"],
 "check_service_health": ["ping our API health endpoint at api.internal/healthz and tell me the latency"],
 "create_note": ["make a note called Boiler and write that the service is due in March"],
}
