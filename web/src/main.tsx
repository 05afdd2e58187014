import { render } from 'preact';
import '@picocss/pico/css/pico.min.css';
import './style.css';
import { App } from './app';

const root = document.getElementById('app');
if (root) render(<App />, root);
