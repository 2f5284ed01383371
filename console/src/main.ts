/** The console's shell: the tabs (routed by the URL hash), the login form, the signed-in user. */
import './style.css';
import { basicAuth, currentUser, logout, onLogin } from './api.js';
import { clusterView, indicesView } from './admin-views.js';
import { devtoolsView } from './devtools.js';
import { h } from './dom.js';
import { sqlView } from './sql-view.js';

interface View {
  el: HTMLElement;
  show(): void;
  hide?(): void;
}

const views: Record<string, { title: string; make: () => View; made?: View }> = {
  devtools: { title: 'Dev Tools', make: devtoolsView },
  sql: { title: 'SQL', make: sqlView },
  indices: { title: 'Indices', make: indicesView },
  cluster: { title: 'Cluster', make: clusterView },
};

const main = h('main', {});
const user = h('span', { class: 'user' });
const nav = h(
  'nav',
  {},
  ...Object.entries(views).map(([id, v]) => h('a', { href: '#' + id, 'data-view': id }, v.title)),
);
const header = h('header', {}, h('span', { class: 'brand' }, 'Quarry'), nav, user);
// replaces the static header index.html paints before this script has loaded
document.body.replaceChildren(header, main);

function renderUser(): void {
  const name = currentUser();
  user.replaceChildren(
    ...(name
      ? [
          `${name} `,
          h(
            'button',
            { type: 'button', class: 'link', onclick: () => (logout(), location.reload()) },
            'log out',
          ),
        ]
      : []),
  );
}

function route(): void {
  const id = location.hash.slice(1) in views ? location.hash.slice(1) : 'devtools';
  for (const [key, v] of Object.entries(views)) {
    const active = key === id;
    nav.querySelector(`[data-view="${key}"]`)!.classList.toggle('active', active);
    if (active) {
      v.made ??= v.make();
      if (!v.made.el.isConnected) main.append(v.made.el);
      v.made.el.hidden = false;
      v.made.show();
    } else if (v.made) {
      v.made.el.hidden = true;
      v.made.hide?.();
    }
  }
}

onLogin(
  (message) =>
    new Promise((resolve) => {
      const name = h('input', { name: 'username', autocomplete: 'username', required: true });
      const password = h('input', {
        name: 'password',
        type: 'password',
        autocomplete: 'current-password',
        required: true,
      });
      const form = h(
        'form',
        { class: 'login' },
        h('h2', {}, 'Sign in to Quarry'),
        h('p', { class: 'muted' }, message),
        h('label', {}, 'User name', name),
        h('label', {}, 'Password', password),
        h('button', { type: 'submit', class: 'run' }, 'Sign in'),
      );
      const overlay = h('div', { class: 'overlay' }, form);
      form.addEventListener('submit', (e) => {
        e.preventDefault();
        overlay.remove();
        resolve(basicAuth(name.value, password.value));
        renderUser();
      });
      document.body.append(overlay);
      name.focus();
    }),
);

renderUser();
window.addEventListener('hashchange', route);
route();
