// The app's entry: the router, then the shell mounted on #app.
import { mount } from 'svelte';
import App from './App.svelte';
import './app.css';
import { startRouter } from './lib/router.svelte';

startRouter();
const target = document.getElementById('app');
if (!target) throw new Error('missing #app');
export default mount(App, { target });
