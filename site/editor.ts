import type { EditorOptions } from 'ssg';

// The content editor at /admin: where it saves, and how staff sign in. The repository and the
// OAuth proxy's address are this site's; see docs/editor.md for setting up the proxy.
export const editor: EditorOptions = {
  backend: {
    repo: 'validators-example/website',
    branch: 'main',
    oauthProxy: 'https://cms-auth.validators.example',
  },
  // Each article and change is a pull request until an editor publishes it.
  publishMode: 'editorial_workflow',
  labels: { articles: 'News', data: { site: 'Site settings', networks: 'Networks', team: 'Team' } },
};
