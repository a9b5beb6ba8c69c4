// A Vue 3 + Vue Router 4 shop with no binding: the tracker's autoObserve watches every
// [data-engage-context] element the templates render. Nothing router-specific.
import { createApp } from 'vue';
import { createRouter, createWebHistory } from 'vue-router';
import { autoObserve, createTracker } from 'engage-sdk';
import App from './App.vue';
import Cart from './Cart.vue';
import Home from './Home.vue';
import Product from './Product.vue';
import './app.css';

const tracker = createTracker({ endpoint: '/engage', customerId: 'shopper-1', flushInterval: 500 });
autoObserve(tracker);

const router = createRouter({
  history: createWebHistory(),
  routes: [
    { path: '/', component: Home },
    { path: '/product/:id', component: Product },
    { path: '/cart', component: Cart },
  ],
  scrollBehavior: (to, from, saved) => saved ?? (to.hash ? { el: to.hash } : { top: 0 }),
});

createApp(App).use(router).mount('#app');
